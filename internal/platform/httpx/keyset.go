package httpx

import (
	"strconv"
	"strings"
)

// KeyPage is one page of a list paged by keyset: no total and no page
// number. NextCursor names where the next page starts; it is nil on the
// last page (HasMore false).
type KeyPage[T any] struct {
	List       []T     `json:"list"`
	PageSize   int     `json:"pageSize"`
	HasMore    bool    `json:"hasMore"`
	NextCursor *string `json:"nextCursor"`
}

// NewKeyPage is the page of size made of rows, which holds up to size+1
// rows (one more than the page shows tells there is more): the extra row
// is dropped and key, given the page's last row, makes the next cursor.
func NewKeyPage[T any](rows []T, size int, key func(T) []int64) KeyPage[T] {
	p := KeyPage[T]{List: rows, PageSize: size}
	if p.List == nil {
		p.List = []T{}
	}
	if len(p.List) > size {
		p.List, p.HasMore = p.List[:size], true
		c := Cursor(key(p.List[size-1])...)
		p.NextCursor = &c
	}
	return p
}

// Cursor is the opaque cursor made of keys (each 0..MaxInt64): "k" and
// the keys in base 36, joined by ".". ParseCursor reads one back.
func Cursor(keys ...int64) string {
	var b strings.Builder
	b.WriteByte('k')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte('.')
		}
		b.WriteString(strconv.FormatInt(k, 36))
	}
	return b.String()
}

// ParseCursor reads a cursor of n keys made by Cursor; false when c is
// not one (another shape, a negative key, a non-canonical spelling).
func ParseCursor(c string, n int) ([]int64, bool) {
	if len(c) < 2 || len(c) > 1+n*14 || c[0] != 'k' {
		return nil, false
	}
	parts := strings.Split(c[1:], ".")
	if len(parts) != n {
		return nil, false
	}
	keys := make([]int64, n)
	for i, s := range parts {
		k, err := strconv.ParseInt(s, 36, 64)
		if err != nil || k < 0 {
			return nil, false
		}
		keys[i] = k
	}
	if Cursor(keys...) != c {
		return nil, false
	}
	return keys, true
}

// KeyParams reads pageSize (1..MaxPageSize, defSize when absent) and
// cursor, a cursor of n keys this list gave (nil keys: the first page).
// A malformed cursor fails the query with 422.
func KeyParams(q *Query, n int, defSize int64) (keys []int64, pageSize int) {
	size := q.Int("pageSize", defSize, 1, MaxPageSize)
	if c := q.String("cursor"); c != "" {
		var ok bool
		if keys, ok = ParseCursor(c, n); !ok {
			q.fail(Invalid("参数 cursor 无效，请从第一页重新加载", "cursor is not one this list gave"))
		}
	}
	return keys, int(size)
}
