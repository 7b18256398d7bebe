package httpx

import (
	"encoding/json"
	"testing"
)

func TestNewPage(t *testing.T) {
	for _, c := range []struct {
		list             []int
		total, num, size int
		want             string
	}{
		{nil, 0, 1, 20, `{"list":[],"total":0,"pageNumber":1,"pageSize":20,"hasMore":false}`},
		{[]int{1, 2}, 5, 1, 2, `{"list":[1,2],"total":5,"pageNumber":1,"pageSize":2,"hasMore":true}`},
		{[]int{5}, 5, 3, 2, `{"list":[5],"total":5,"pageNumber":3,"pageSize":2,"hasMore":false}`},
		{[]int{3, 4}, 4, 2, 2, `{"list":[3,4],"total":4,"pageNumber":2,"pageSize":2,"hasMore":false}`},
	} {
		b, err := json.Marshal(NewPage(c.list, c.total, c.num, c.size))
		if err != nil || string(b) != c.want {
			t.Errorf("NewPage(%v, %d, %d, %d) = %s %v, want %s", c.list, c.total, c.num, c.size, b, err, c.want)
		}
	}
}
