package community

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"prima/internal/platform/httpx"
)

// List kinds of GET /api/app/follow/list.
const (
	ListFollow = "follow" // the users uid follows
	ListFans   = "fans"   // the users following uid
)

// Person is one row of a follow list.
type Person struct {
	UID      int64  `json:"uid"`
	Name     string `json:"name"`
	Portrait string `json:"portrait"`
	VipLevel int    `json:"vipLevel"`
	Bio      string `json:"bio"`
	// IsFollow: the caller follows this person (false for anonymous).
	IsFollow   bool      `json:"isFollow"`
	FollowedAt time.Time `json:"followedAt"` // when the follow in this list began
}

// ListPage is a page of a follow list in the one page shape, plus Cursor:
// passing it back as ?cursor= gives the next page by keyset (a client that
// scrolls should), "" when there is none.
type ListPage struct {
	httpx.Page[Person]
	Cursor string `json:"cursor"`
}

// ErrBadCursor: a cursor this service did not hand out (422).
var ErrBadCursor = errors.New("community: malformed cursor")

// ListQuery is what to list.
type ListQuery struct {
	Viewer     int64 // 0: anonymous
	UID        int64
	Kind       string // ListFollow or ListFans
	PageNumber int
	PageSize   int
	Cursor     string
}

// List is a page of uid's following or fans, newest follow first. With a
// cursor the page starts after it (keyset: deep pages cost what the first
// does); without one, pageNumber selects it within httpx.MaxPage.
func (s *Service) List(ctx context.Context, q ListQuery) (ListPage, error) {
	if q.Kind != ListFollow && q.Kind != ListFans {
		return ListPage{}, fmt.Errorf("community: list kind %q", q.Kind)
	}
	var after *cursor
	if q.Cursor != "" {
		c, err := parseCursor(q.Cursor)
		if err != nil {
			return ListPage{}, err
		}
		after = &c
	}
	if _, err := s.userCard(ctx, s.db, q.UID); err != nil {
		return ListPage{}, err
	}
	followCount, fansCount, err := counts(ctx, s.db, q.UID)
	if err != nil {
		return ListPage{}, err
	}
	total := followCount
	if q.Kind == ListFans {
		total = fansCount
	}
	offset := 0
	if after == nil {
		offset = (q.PageNumber - 1) * q.PageSize
	}
	rows, err := listFollows(ctx, s.db, q.Kind, q.UID, after, offset, q.PageSize+1)
	if err != nil {
		return ListPage{}, err
	}
	more := len(rows) > q.PageSize
	if more {
		rows = rows[:q.PageSize]
	}
	ids := make([]int64, len(rows))
	for i, r := range rows {
		ids[i] = r.uid
	}
	cards, err := s.people(ctx, s.db, ids)
	if err != nil {
		return ListPage{}, err
	}
	now := s.now()
	list := make([]Person, 0, len(rows))
	ids = ids[:0]
	for _, r := range rows {
		c, ok := cards[r.uid]
		if !ok {
			continue // follows reference users: never, but never a blank row
		}
		list = append(list, Person{
			UID: r.uid, Name: c.Name, Portrait: c.Portrait, Bio: c.Bio, VipLevel: c.VipLevel(now),
			FollowedAt: time.Unix(r.at, 0).UTC(),
		})
		ids = append(ids, r.uid)
	}
	if q.Viewer != 0 && len(ids) > 0 {
		mine, err := following(ctx, s.db, q.Viewer, ids)
		if err != nil {
			return ListPage{}, err
		}
		for i := range list {
			list[i].IsFollow = mine[list[i].UID]
		}
	}
	out := ListPage{Page: httpx.Page[Person]{List: list, Total: int(total), PageNumber: q.PageNumber, PageSize: q.PageSize, HasMore: more}}
	if more {
		last := rows[len(rows)-1]
		out.Cursor = cursor{at: last.at, uid: last.uid}.String()
	}
	return out, nil
}

// cursor is the last row of a page: its follow time and uid.
type cursor struct{ at, uid int64 }

func (c cursor) String() string {
	return strconv.FormatInt(c.at, 10) + "_" + strconv.FormatInt(c.uid, 10)
}

func parseCursor(s string) (cursor, error) {
	a, b, ok := strings.Cut(s, "_")
	if !ok {
		return cursor{}, ErrBadCursor
	}
	at, err1 := strconv.ParseInt(a, 10, 64)
	uid, err2 := strconv.ParseInt(b, 10, 64)
	if err1 != nil || err2 != nil || at < 0 || uid <= 0 {
		return cursor{}, ErrBadCursor
	}
	return cursor{at: at, uid: uid}, nil
}
