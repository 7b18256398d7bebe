package httpx

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"unicode/utf8"
)

type textInner struct {
	Title string `json:"title"`
	Notes string `json:"notes" text:"multiline"`
}

type textEmbedded struct {
	Deep     string            `json:"deep"`
	DeepMap  map[string]string `json:"deepMap" text:"strip"`
	DeepKeys map[int]string    `json:"deepKeys"`
}

type textBody struct {
	textEmbedded
	Name     string            `json:"name"`
	Bio      string            `json:"bio" text:"multiline"`
	Paste    string            `json:"paste" text:"strip"`
	PasteML  string            `json:"pasteML" text:"multiline,strip"`
	Tags     []string          `json:"tags"`
	Attrs    map[string]string `json:"attrs"`
	StripMap map[string]string `json:"stripMap" text:"strip"`
	StripAny any               `json:"stripAny" text:"strip"`
	Items    []textInner       `json:"items"`
	Ptr      *string           `json:"ptr"`
	Any      any               `json:"any"`
	Raw      json.RawMessage   `json:"raw"`
	NoTag    string
	Skipped  string `json:"-"`
}

func decodeText(t *testing.T, body string) (textBody, *Error) {
	t.Helper()
	var b textBody
	r := httptest.NewRequest("POST", "/x", strings.NewReader(body))
	err := Decode(httptest.NewRecorder(), r, &b)
	if err == nil {
		return b, nil
	}
	var e *Error
	if !errors.As(err, &e) {
		t.Fatalf("%s: not an *Error: %v", body, err)
	}
	return b, e
}

func TestDecodeRefusesControlCharacters(t *testing.T) {
	cases := []struct {
		name, body, field string
	}{
		{"NUL", `{"name":"a\u0000b"}`, "name"},
		{"newline in a single-line field", `{"name":"a\nb"}`, "name"},
		{"carriage return", `{"name":"a\rb"}`, "name"},
		{"tab", `{"name":"a\tb"}`, "name"},
		{"escape", `{"name":"\u001b[2J"}`, "name"},
		{"DEL", `{"name":"\u007f"}`, "name"},
		{"C1", `{"name":"\u009b"}`, "name"},
		{"raw C1 bytes", "{\"name\":\"\xc2\x85\"}", "name"},
		{"NUL in a multiline field", `{"bio":"a\n\u0000"}`, "bio"},
		{"slice element", `{"tags":["ok","b\u0001"]}`, "tags[1]"},
		{"map value", `{"attrs":{"k":"\u0002"}}`, `attrs["k"]`},
		{"map key", `{"attrs":{"k\u0000":"v"}}`, `attrs["k\x00"]`},
		{"nested struct", `{"items":[{"title":"ok"},{"title":"\u0003"}]}`, "items[1].title"},
		{"pointer", `{"ptr":"\u0004"}`, "ptr"},
		{"interface", `{"any":{"x":["\u0005"]}}`, `any["x"][0]`},
		{"untagged field", `{"NoTag":"\u0006"}`, "NoTag"},
		{"embedded struct", `{"deep":"\u0007"}`, "deep"},
		{"map with int keys in an embedded struct", `{"deepKeys":{"7":"\u0007"}}`, `deepKeys["7"]`},
		{"invalid UTF-8", "{\"name\":\"a\xffb\"}", "name"},
		{"truncated UTF-8", "{\"name\":\"\xe4\xbd\"}", "name"},
		{"lone high surrogate", `{"tags":["\ud800"]}`, "tags[0]"},
		{"lone low surrogate", `{"name":"\udfff"}`, "name"},
		{"high surrogate then text", `{"name":"\ud800abcdef"}`, "name"},
		{"two high surrogates", `{"name":"\ud800\ud800"}`, "name"},
		{"escaped backslash before a lone surrogate", `{"name":"\\\ud800"}`, "name"},
		{"noncharacter", `{"name":"\uffff"}`, "name"},
		{"a key that echoes long", `{"attrs":{"` + strings.Repeat("k", 200) + `\u0000":"v"}}`, `attrs["` + strings.Repeat("k", 50)},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, e := decodeText(t, c.body)
			if e == nil {
				t.Fatalf("%s accepted", c.body)
			}
			if e.Status != http.StatusUnprocessableEntity || !strings.Contains(e.Tip, "参数 "+c.field) || !strings.Contains(e.Tip, "控制字符") {
				t.Fatalf("got %d %q (%s), want a 422 naming %s", e.Status, e.Tip, e.Msg, c.field)
			}
			if utf8.RuneCountInString(e.Tip) > EchoLimit*2+40 || strings.ContainsAny(e.Tip+e.Msg, "\x00\n") {
				t.Fatalf("tip or msg not bounded/escaped: %q %q", e.Tip, e.Msg)
			}
		})
	}
}

func TestDecodeAcceptsCleanAndDeclaredText(t *testing.T) {
	b, e := decodeText(t, `{
		"name":"张三 😀 \ud83d\ude00 \\u0000 \"quoted\" \u00e9",
		"bio":"line one\nline two\r\n\tindented",
		"paste":"a\u0000b\nc\u0007\td\u0085",
		"pasteML":"a\nb\u0000\tc",
		"stripMap":{"k":"v\u0001w"},
		"stripAny":{"x":["y\u0002z"],"n":1},
		"items":[{"title":"t","notes":"n1\nn2"}],
		"raw":{"a":"\u0000"},
		"Skipped":"\u0000",
		"deepMap":{"k":"a\u0000"}
	}`)
	if e != nil {
		t.Fatalf("refused: %v", e)
	}
	if b.Name != `张三 😀 😀 \u0000 "quoted" é` {
		t.Errorf("name %q", b.Name)
	}
	if b.Bio != "line one\nline two\r\n\tindented" || b.Items[0].Notes != "n1\nn2" {
		t.Errorf("multiline text changed: %q %q", b.Bio, b.Items[0].Notes)
	}
	if b.Paste != "ab c d" {
		t.Errorf("strip: %q", b.Paste)
	}
	if b.PasteML != "a\nb\tc" {
		t.Errorf("multiline strip: %q", b.PasteML)
	}
	if b.StripMap["k"] != "vw" {
		t.Errorf("strip in a map: %q", b.StripMap["k"])
	}
	if got := b.StripAny.(map[string]any)["x"].([]any)[0]; got != "yz" {
		t.Errorf("strip in an interface: %q", got)
	}
	if b.DeepMap["k"] != "a" {
		t.Errorf("strip in an embedded struct's map: %q", b.DeepMap["k"])
	}
	if b.Skipped != "" {
		t.Errorf("a json:\"-\" field was decoded")
	}
}

func TestDecodeInvalidBytesOutsideStrings(t *testing.T) {
	_, e := decodeText(t, "{\"name\":\"a\"\xff}")
	if e == nil || e.Status != http.StatusBadRequest {
		t.Fatalf("got %v, want 400 malformed", e)
	}
}

func TestMarkInvalidLeavesCleanBodiesAlone(t *testing.T) {
	for _, b := range []string{`{"a":"b"}`, `{"a":"\ud83d\ude00 \u4e2d \\u"}`, `{"a":"\n"}`} {
		if got := string(markInvalid([]byte(b))); got != b {
			t.Errorf("%s became %s", b, got)
		}
	}
}

func TestQueryStringTextRule(t *testing.T) {
	q := Q(httptest.NewRequest("GET", "/x?q=%20hi%20&bad=a%00b&utf=%ff&line=a%0Ab", nil))
	if got := q.String("q"); got != "hi" || q.Err() != nil {
		t.Fatalf("q=%q err=%v", got, q.Err())
	}
	for _, name := range []string{"bad", "utf", "line"} {
		q := Q(httptest.NewRequest("GET", "/x?bad=a%00b&utf=%ff&line=a%0Ab", nil))
		if got := q.String(name); got != "" {
			t.Errorf("%s read as %q", name, got)
		}
		var e *Error
		if !errors.As(q.Err(), &e) || e.Status != 422 || !strings.Contains(e.Tip, name) {
			t.Errorf("%s: %v", name, q.Err())
		}
	}
}

func TestEcho(t *testing.T) {
	long := strings.Repeat("长", 100)
	cases := []struct{ in, want string }{
		{"abc", `"abc"`},
		{"", `""`},
		{"a\x00b\nc", `"a\x00b\nc"`},
		{"a\xffb", `"a\xffb"`},
		{"say \"hi\"", `"say \"hi\""`},
		{long, `"` + strings.Repeat("长", 64) + `…"`},
		{strings.Repeat("x", 64), `"` + strings.Repeat("x", 64) + `"`},
		{strings.Repeat("x", 65), `"` + strings.Repeat("x", 64) + `…"`},
		{strings.Repeat("\xff", 70), `"` + strings.Repeat(`\xff`, 64) + `…"`},
	}
	for _, c := range cases {
		if got := Echo(c.in); got != c.want {
			t.Errorf("Echo(%q) = %s, want %s", c.in, got, c.want)
		}
	}
}

// A msg built without Echo is still bounded and escaped on the way out.
func TestWriteErrorBoundsMsg(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteError(rec, httptest.NewRequest("GET", "/x", nil), Invalid("参数错误", "value "+strings.Repeat("v", 2000)+"\nInjected: log line"))
	var env Envelope
	if err := json.Unmarshal(rec.Body.Bytes(), &env); err != nil {
		t.Fatal(err)
	}
	if len(env.Msg) > maxMsg+10 || strings.Contains(env.Msg, "\n") || !strings.HasSuffix(env.Msg, "…") {
		t.Fatalf("msg %d bytes: %.80q", len(env.Msg), env.Msg)
	}
	rec = httptest.NewRecorder()
	WriteError(rec, httptest.NewRequest("GET", "/x", nil), Invalid("参数错误", `field "x" is bad`))
	if !strings.Contains(rec.Body.String(), `field \"x\" is bad"`) {
		t.Fatalf("a clean msg was changed: %s", rec.Body)
	}
}
