package account

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// TestSearchUsersPagesByUID: the search pages by uid descending with the
// cursor it gives (no row twice, none left out), and each way of matching
// finds only what it should.
func TestSearchUsersPagesByUID(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTestService(t, d)
		var want []int64
		for i := range 5 {
			uid := guest(t, s, devID(100+i)).User.ID
			if _, err := d.Exec(ctx, `UPDATE users SET name = ? WHERE id = ?`, fmt.Sprintf("页码测试%d", i), uid); err != nil {
				t.Fatal(err)
			}
			want = append([]int64{uid}, want...)
		}
		var got []int64
		var before int64
		for pages := 0; ; pages++ {
			list, next, err := s.SearchUsers(ctx, "码测", before, 2)
			if err != nil {
				t.Fatal(err)
			}
			for _, u := range list {
				got = append(got, u.ID)
			}
			if next == 0 {
				if pages != 2 || len(list) != 1 {
					t.Fatalf("last page %d holds %d", pages, len(list))
				}
				break
			}
			before = next
		}
		if !slices.Equal(got, want) {
			t.Fatalf("pages gave %v, want %v", got, want)
		}
		// "_" is a character, not LIKE's wildcard; a uid is found by its
		// digits (with any name holding them).
		if list, _, _ := s.SearchUsers(ctx, "码_", 0, 10); len(list) != 0 {
			t.Fatalf("_ matched %d users", len(list))
		}
		list, _, _ := s.SearchUsers(ctx, fmt.Sprint(want[2]), 0, 10)
		if !slices.ContainsFunc(list, func(u User) bool { return u.ID == want[2] }) {
			t.Fatalf("uid search: %v", list)
		}
	})
}
