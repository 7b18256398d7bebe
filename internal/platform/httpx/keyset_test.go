package httpx

import (
	"net/http/httptest"
	"net/url"
	"slices"
	"testing"
)

func TestCursorRoundTrip(t *testing.T) {
	for _, keys := range [][]int64{{1}, {0, 7}, {1_700_000_000, 9_007_199_254_740_991}, {MaxID}} {
		c := Cursor(keys...)
		got, ok := ParseCursor(c, len(keys))
		if !ok || !slices.Equal(got, keys) {
			t.Errorf("ParseCursor(%q) = %v, %v; want %v", c, got, ok, keys)
		}
	}
	for _, bad := range []string{"", "k", "1", "v1", "k1.2", "k-1", "kA", "k01", "k1..2", "k1.", "kzzzzzzzzzzzzzzz", "k1\x00"} {
		if _, ok := ParseCursor(bad, 1); ok {
			t.Errorf("ParseCursor(%q, 1) accepted", bad)
		}
	}
	if _, ok := ParseCursor("k1", 2); ok {
		t.Error("a one-key cursor read as two keys")
	}
}

func TestNewKeyPage(t *testing.T) {
	key := func(n int) []int64 { return []int64{int64(n)} }
	p := NewKeyPage([]int{5, 4, 3}, 2, key)
	if !p.HasMore || len(p.List) != 2 || p.NextCursor == nil || *p.NextCursor != Cursor(4) {
		t.Fatalf("page = %+v", p)
	}
	p = NewKeyPage([]int{5, 4}, 2, key)
	if p.HasMore || p.NextCursor != nil || len(p.List) != 2 {
		t.Fatalf("last page = %+v", p)
	}
	if p := NewKeyPage[int](nil, 2, key); p.List == nil {
		t.Fatal("nil list")
	}
}

func TestKeyParams(t *testing.T) {
	read := func(raw string) ([]int64, int, error) {
		q := Q(httptest.NewRequest("GET", "/x?"+raw, nil))
		keys, size := KeyParams(q, 2, 20)
		return keys, size, q.Err()
	}
	if keys, size, err := read(""); err != nil || keys != nil || size != 20 {
		t.Fatalf("empty: %v %d %v", keys, size, err)
	}
	if keys, size, err := read("pageSize=5&cursor=" + url.QueryEscape(Cursor(3, 4))); err != nil || !slices.Equal(keys, []int64{3, 4}) || size != 5 {
		t.Fatalf("cursor: %v %d %v", keys, size, err)
	}
	for _, bad := range []string{"cursor=abc", "cursor=k1", "pageSize=51", "pageSize=0"} {
		if _, _, err := read(bad); err == nil {
			t.Errorf("%s accepted", bad)
		}
	}
}
