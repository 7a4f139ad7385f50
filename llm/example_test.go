package llm_test

import (
	"context"
	"fmt"
	"time"

	"github.com/tgms-go/tgms/llm"
)

func Example() {
	srv, replay := llm.NewReplayServer(
		llm.Entry{Status: 429, Headers: map[string]string{"Retry-After": "0"}},
		llm.Entry{Text: "<think>count them</think>\n```json\n{\"count\": 3}\n```"},
	)
	defer srv.Close()

	client, err := llm.New(llm.Config{BaseURL: srv.URL + "/v1", Model: "Qwen/Qwen3-8B", Backoff: time.Millisecond})
	if err != nil {
		panic(err)
	}
	resp, err := client.Complete(context.Background(), llm.Request{
		Messages: []llm.Message{{Role: llm.RoleUser, Content: "How many nodes?"}},
	})
	if err != nil {
		panic(err)
	}
	js, err := llm.ExtractJSON(resp.Text)
	fmt.Println(js, err, resp.Attempts, len(replay.Requests()))
	// Output: {"count": 3} <nil> 2 2
}

func ExampleNew_missingSettings() {
	_, err := llm.New(llm.Config{})
	fmt.Println(err != nil)
	// Output: true
}
