package catalog

import (
	"errors"
	"slices"
	"testing"
)

func TestNormalizeLines(t *testing.T) {
	got, err := NormalizeLines(Lines{
		API:      []string{" HTTPS://Api.Example.org:443/ ", "http://[::1]:8080", "http://127.0.0.1:80", "https://api.example.org"},
		Image:    []string{"https://img.example.org:8443/"},
		Fallback: []string{"https://CDN.example.net/a/lines.txt?v=2"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"https://api.example.org", "http://[::1]:8080", "http://127.0.0.1"}; !slices.Equal(got.API, want) {
		t.Errorf("api %q, want %q", got.API, want)
	}
	if !slices.Equal(got.Image, []string{"https://img.example.org:8443"}) || got.Video == nil || len(got.Video) != 0 {
		t.Errorf("image %q video %q", got.Image, got.Video)
	}
	if !slices.Equal(got.Fallback, []string{"https://cdn.example.net/a/lines.txt?v=2"}) {
		t.Errorf("fallback %q", got.Fallback)
	}

	for _, bad := range []Lines{
		{API: []string{"https://exämple.org"}}, // IDN: give the punycode
		{API: []string{"https://-a.example.org"}},
		{API: []string{"https://a..example.org"}},
		{API: []string{"https://a.example.org?"}},
		{API: []string{"mailto:ops@example.org"}},
		{Image: []string{"//img.example.org"}},
		{Video: []string{"https://a.example.org:0"}},
		{Fallback: []string{"ftp://cdn.example.net/lines.txt"}},
		{Fallback: []string{"https://u@cdn.example.net/lines.txt"}},
	} {
		_, err := NormalizeLines(bad)
		var le *LineError
		if !errors.As(err, &le) || le.Index != 0 {
			t.Errorf("%+v: %v", bad, err)
		}
	}
}

func TestLineOriginsAndPolicy(t *testing.T) {
	l := Lines{API: []string{"https://a.example.org"}, Image: []string{"https://a.example.org", "http://127.0.0.1:9"},
		Fallback: []string{"https://cdn.example.net/lines.txt"}}
	if got, want := lineOrigins(l), []string{"https://a.example.org", "http://127.0.0.1:9", "https://cdn.example.net"}; !slices.Equal(got, want) {
		t.Errorf("origins %q, want %q", got, want)
	}
}
