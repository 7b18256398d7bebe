package httpx

import (
	"strings"
	"testing"
)

func TestLinePolicy(t *testing.T) {
	if linePolicy(nil, false) != csp {
		t.Error("no lines must keep the fixed policy")
	}
	p := linePolicy([]string{"https://a.example.org", "http://127.0.0.1:9"}, false)
	for _, want := range []string{
		"connect-src 'self' https://a.example.org http://127.0.0.1:9;",
		"img-src 'self' data: blob: https: https://a.example.org http://127.0.0.1:9;",
		"media-src 'self' blob: https: https://a.example.org http://127.0.0.1:9;",
		"script-src 'self';",
		"default-src 'self';",
	} {
		if !strings.Contains(p, want) {
			t.Errorf("policy %q lacks %q", p, want)
		}
	}
	if p := linePolicy(nil, true); !strings.Contains(p, "connect-src 'self' https:;") || !strings.Contains(p, "script-src 'self';") {
		t.Errorf("fallback policy %q", p)
	}
}
