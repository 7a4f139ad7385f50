package bitemporal

import (
	"reflect"
	"strings"
	"testing"
)

func TestDecodeOpRoundTrip(t *testing.T) {
	for _, in := range []string{
		`{"op":"assert_node","uid":"a","label":"Person","props":{"name":"Ada"},"vt_s":0}`,
		`{"op":"assert_edge","src":"a","dst":"b","rel_type":"KNOWS","vt_s":"2004-04-15T14:56:01Z","vt_e":1082040962000000}`,
		`{"op":"retract","ref":{"kind":"edge","src":"a","dst":"b","rel_type":"KNOWS"},"t":80}`,
		`{"op":"correct","ref":{"kind":"node","uid":"a"},"props":{"w":2.5},"vt_s":40,"vt_e":60}`,
		`{"op":"ingest","node_label":"User","events":[{"src":"a","dst":"b","rel_type":"MSG","vt_s":5},{"src":"b","dst":"a","rel_type":"MSG","vt_s":6,"vt_e":9,"disc":"m1","props":{"x":1}}]}`,
	} {
		op, err := DecodeOp([]byte(in))
		if err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		enc, err := EncodeOp(op)
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeOp(enc)
		if err != nil {
			t.Fatalf("re-decode %s: %v", enc, err)
		}
		// Events get their default end written out; normalize before comparing.
		for i := range op.Events {
			op.Events[i].VtE = op.Events[i].Valid().End
		}
		if !reflect.DeepEqual(op, back) {
			t.Fatalf("round trip changed the op:\n in  %+v\n out %+v", op, back)
		}
	}
}

func TestDecodeOpErrors(t *testing.T) {
	for in, want := range map[string]string{
		`[1]`:                                          "must be a JSON object",
		`{"op":"delete","uid":"a"}`:                    `unknown op "delete"`,
		`{"uid":"a"}`:                                  `"op": is required`,
		`{"op":"assert_node"}`:                         `"uid": is required`,
		`{"op":"assert_node","uid":1}`:                 "must be a string",
		`{"op":"assert_node","uid":"a","x":1}`:         "unknown field(s) x",
		`{"op":"assert_node","uid":"a","vt_s":1.5}`:    "must be an integer",
		`{"op":"assert_node","uid":"a","vt_s":"soon"}`: "RFC 3339",
		`{"op":"assert_node","uid":"a","props":[1]}`:   "props must be a JSON object",
		`{"op":"retract","t":3}`:                       `"ref": is required`,
		`{"op":"retract","ref":{"kind":"blob"},"t":3}`: `must be "node" or "edge"`,
		`{"op":"ingest","events":[{"src":"a"}]}`:       `events[0]: field "dst": is required`,
		`{"op":"assert_node","uid":"a"`:                "offset",
	} {
		_, err := DecodeOp([]byte(in))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("DecodeOp(%s) err = %v, want mention of %q", in, err, want)
		}
	}
}

func FuzzDecodeOp(f *testing.F) {
	f.Add([]byte(`{"op":"assert_node","uid":"a","label":"P","props":{"n":1},"vt_s":0,"vt_e":9}`))
	f.Add([]byte(`{"op":"ingest","events":[{"src":"a","dst":"b","rel_type":"M","vt_s":"2020-01-01"}]}`))
	f.Add([]byte(`{"op":"retract","ref":{"kind":"edge","src":"a","dst":"b","rel_type":"R"},"t":1}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		op, err := DecodeOp(data)
		if err != nil {
			return
		}
		if op.Validate(0) != nil {
			return
		}
		enc, err := EncodeOp(op)
		if err != nil {
			t.Fatalf("valid op does not encode: %v", err)
		}
		if _, err := DecodeOp(enc); err != nil {
			t.Fatalf("encoded op does not decode: %v\n%s", err, enc)
		}
	})
}

func TestBatchHeader(t *testing.T) {
	for _, tc := range []struct {
		line, err string
		prov      string
		override  bool
	}{
		{line: `{"provenance":{"authority":"user","actor":"dana","ref":"msg-1"}}`, prov: "user/dana/msg-1"},
		{line: `{"provenance":{"authority":"model"},"override":true}`, prov: "model//", override: true},
		{line: `{"override":true}`, override: true},
		{line: `{"provenance":{"authority":"boss"}}`, err: `/provenance/authority: "boss" is not one of user, model, import, system`},
		{line: `{"provenance":{"actor":"x"}}`, err: "/provenance/authority: is required"},
		{line: `{"provenance":{"authority":"user","who":"x"}}`, err: "/provenance/who: unknown field"},
		{line: `{"provenance":{"authority":"user"},"extra":1}`, err: "/extra: unknown batch field"},
		{line: `{"override":"yes"}`, err: "/override: must be true or false"},
		{line: `{"op":"assert_node","uid":"a"}`, err: "a batch header is an object"},
	} {
		var b Batch
		err := DecodeBatchHeader([]byte(tc.line), &b)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: err %v, want %q", tc.line, err, tc.err)
			}
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", tc.line, err)
		}
		got := ""
		if b.Prov != nil {
			got = b.Prov.Authority.String() + "/" + b.Prov.Actor + "/" + b.Prov.Ref
		}
		if got != tc.prov || b.Override != tc.override {
			t.Errorf("%s: prov %q override %v, want %q %v", tc.line, got, b.Override, tc.prov, tc.override)
		}
	}
}

func FuzzBatchHeader(f *testing.F) {
	f.Add([]byte(`{"provenance":{"authority":"user","actor":"dana"},"override":true}`))
	f.Add([]byte(`{"provenance":{"authority":"model","note":"\u0000"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var b Batch
		if err := DecodeBatchHeader(data, &b); err != nil {
			return
		}
		if b.Prov != nil {
			if err := b.Prov.Validate(); err != nil {
				t.Fatalf("accepted an invalid provenance: %v", err)
			}
		}
	})
}
