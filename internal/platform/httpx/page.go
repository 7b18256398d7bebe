package httpx

// Page is every list's answer (docs/api.md, top): {list, total, pageNumber,
// pageSize, hasMore}.
type Page[T any] struct {
	List       []T  `json:"list"`
	Total      int  `json:"total"`
	PageNumber int  `json:"pageNumber"`
	PageSize   int  `json:"pageSize"`
	HasMore    bool `json:"hasMore"`
}

// NewPage is page num of size whose list holds total rows: hasMore while
// pages after num hold some. A nil list is an empty one, so the JSON says
// [] rather than null.
func NewPage[T any](list []T, total, num, size int) Page[T] {
	if list == nil {
		list = []T{}
	}
	return Page[T]{List: list, Total: total, PageNumber: num, PageSize: size, HasMore: num*size < total}
}

// List limits shared by every list: a page holds at most MaxPageSize
// entries, and pages reach the first PageWindow rows of a list.
const (
	MaxPageSize = 50
	PageWindow  = 10_000
)

// MaxPage is the deepest pageNumber a list of pageSize reaches.
func MaxPage(pageSize int) int { return (PageWindow + pageSize - 1) / pageSize }

// PageParams reads pageSize (1..MaxPageSize, defSize when absent) and then
// pageNumber, whose bound depends on the page size (MaxPage).
func PageParams(q *Query, defSize int64) (pageNumber, pageSize int) {
	size := q.Int("pageSize", defSize, 1, MaxPageSize)
	num := q.Int("pageNumber", 1, 1, int64(MaxPage(int(size))))
	return int(num), int(size)
}
