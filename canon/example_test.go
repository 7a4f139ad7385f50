package canon_test

import (
	"fmt"

	"github.com/tgms-go/tgms/canon"
)

func ExampleMarshal() {
	b, _ := canon.Marshal(map[string]any{
		"b": []any{int64(1), 1.0, 1e16, 1e-05},
		"a": "</é>\n",
	})
	fmt.Println(string(b))
	// Output: {"a":"</é>\n","b":[1,1.0,1e+16,1e-05]}
}

func ExampleCanonicalize() {
	b, _ := canon.Canonicalize([]byte(` { "z" : 1e2 , "a" : [ 1.0 , -0 ] } `))
	fmt.Println(string(b))
	_, err := canon.Canonicalize([]byte(`{"a":1,"a":2}`))
	fmt.Println(err)
	// Output:
	// {"a":[1.0,0],"z":100.0}
	// canon: offset 7: duplicate object key "a"
}

func ExampleDigest() {
	d, _ := canon.Digest([]any{"a", "b", "R", ""})
	fmt.Println(d[:24])
	// Output: f39a58802118efa2055a9e26
}
