package messaging

import (
	"context"
	"time"

	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// NoticeView is a notice as its user sees it.
type NoticeView struct {
	ID        int64     `json:"id"`
	Category  string    `json:"category"`
	Kind      string    `json:"kind"`
	Title     string    `json:"title"`
	Body      string    `json:"body"`
	Ref       string    `json:"ref"`
	Actor     *Person   `json:"actor"` // who caused it; null for the system
	CreatedAt time.Time `json:"createdAt"`
	Read      bool      `json:"read"`

	actorID int64
}

// CheckCategory accepts the two notice categories.
func CheckCategory(c string) error {
	if c != CategorySystem && c != CategoryInteraction {
		return ErrCategory
	}
	return nil
}

// Notices is one page of my notices of one category, newest first.
func (s *Service) Notices(ctx context.Context, me int64, category string, num, size int) (httpx.Page[NoticeView], error) {
	if err := CheckCategory(category); err != nil {
		return httpx.Page[NoticeView]{}, err
	}
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM notices WHERE user_id = ? AND category = ?`, me, category).Scan(&total); err != nil {
		return httpx.Page[NoticeView]{}, err
	}
	p := httpx.NewPage[NoticeView](nil, total, num, size)
	list, err := db.All(ctx, s.db, func(r db.Scanner) (NoticeView, error) {
		var n NoticeView
		var created, read int64
		err := r.Scan(&n.ID, &n.Category, &n.Kind, &n.Title, &n.Body, &n.Ref, &n.actorID, &created, &read)
		n.CreatedAt, n.Read = time.Unix(created, 0).UTC(), read != 0
		return n, err
	}, `SELECT id, category, kind, title, body, ref, actor_id, created_at, read_at FROM notices
		WHERE user_id = ? AND category = ? ORDER BY id DESC LIMIT ? OFFSET ?`, me, category, size, (num-1)*size)
	if err != nil {
		return p, err
	}
	var actors []int64
	for _, n := range list {
		if n.actorID != 0 {
			actors = append(actors, n.actorID)
		}
	}
	people, err := s.lookup(ctx, actors)
	if err != nil {
		return p, err
	}
	for _, n := range list {
		if n.actorID != 0 {
			a := personOr(people, n.actorID)
			n.Actor = &a
		}
		p.List = append(p.List, n)
	}
	return p, nil
}

// ReadNotices marks my unread notices read: those of category, or the ids
// given (others' ids are simply not mine and match nothing). It returns
// how many it marked.
func (s *Service) ReadNotices(ctx context.Context, me int64, category string, ids []int64) (int, error) {
	now := s.now().Unix()
	var n int64
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if len(ids) == 0 {
			if err := CheckCategory(category); err != nil {
				return err
			}
			res, err := tx.Exec(ctx, `UPDATE notices SET read_at = ? WHERE user_id = ? AND category = ? AND read_at = 0`, now, me, category)
			if err != nil {
				return err
			}
			n, err = res.RowsAffected()
			return err
		}
		for _, id := range ids {
			res, err := tx.Exec(ctx, `UPDATE notices SET read_at = ? WHERE user_id = ? AND id = ? AND read_at = 0`, now, me, id)
			if err != nil {
				return err
			}
			k, err := res.RowsAffected()
			if err != nil {
				return err
			}
			n += k
		}
		return nil
	})
	return int(n), err
}

// Unread is what the badges show.
type Unread struct {
	Notices  NoticeCounts `json:"notices"`
	Messages int          `json:"messages"`
}

// NoticeCounts is unread notices per category.
type NoticeCounts struct {
	System      int `json:"system"`
	Interaction int `json:"interaction"`
}

// Unread counts my unread notices and messages.
func (s *Service) Unread(ctx context.Context, me int64) (Unread, error) {
	var u Unread
	rows, err := s.db.Query(ctx, `SELECT category, COUNT(*) FROM notices WHERE user_id = ? AND read_at = 0 GROUP BY category`, me)
	if err != nil {
		return u, err
	}
	defer rows.Close()
	for rows.Next() {
		var c string
		var n int
		if err := rows.Scan(&c, &n); err != nil {
			return u, err
		}
		switch c {
		case CategorySystem:
			u.Notices.System = n
		case CategoryInteraction:
			u.Notices.Interaction = n
		}
	}
	if err := rows.Err(); err != nil {
		return u, err
	}
	err = s.db.QueryRow(ctx, `SELECT COALESCE(SUM(unread), 0) FROM conversations WHERE user_id = ?`, me).Scan(&u.Messages)
	return u, err
}

// HasNew reports whether I have an unread notice or message: the user
// info's msgHasNew (account.Inbox).
func (s *Service) HasNew(ctx context.Context, me int64) (bool, error) {
	var n int
	err := s.db.QueryRow(ctx, `SELECT (SELECT COUNT(*) FROM (SELECT 1 FROM notices WHERE user_id = ? AND read_at = 0 LIMIT 1) a)
		+ (SELECT COUNT(*) FROM (SELECT 1 FROM conversations WHERE user_id = ? AND unread > 0 LIMIT 1) b)`, me, me).Scan(&n)
	return n > 0, err
}

// Conversations is one page of my conversations, the latest first.
func (s *Service) Conversations(ctx context.Context, me int64, num, size int) (httpx.Page[Conversation], error) {
	if err := s.registered(ctx, me); err != nil {
		return httpx.Page[Conversation]{}, err
	}
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM conversations WHERE user_id = ?`, me).Scan(&total); err != nil {
		return httpx.Page[Conversation]{}, err
	}
	p := httpx.NewPage[Conversation](nil, total, num, size)
	type row struct {
		peer   int64
		unread int
		m      Message
	}
	rows, err := db.All(ctx, s.db, func(r db.Scanner) (row, error) {
		var x row
		var created int64
		err := r.Scan(&x.peer, &x.unread, &x.m.ID, &x.m.From, &x.m.Kind, &x.m.Text, &created)
		x.m.CreatedAt = time.Unix(created, 0).UTC()
		return x, err
	}, `SELECT c.peer_id, c.unread, m.id, m.sender_id, m.kind, m.body, m.created_at
		FROM conversations c JOIN messages m ON m.id = c.last_message_id
		WHERE c.user_id = ? ORDER BY c.last_message_id DESC LIMIT ? OFFSET ?`, me, size, (num-1)*size)
	if err != nil {
		return p, err
	}
	uids := make([]int64, 0, len(rows))
	for _, x := range rows {
		uids = append(uids, x.peer)
	}
	people, err := s.lookup(ctx, uids)
	if err != nil {
		return p, err
	}
	for _, x := range rows {
		p.List = append(p.List, Conversation{
			Peer:   personOr(people, x.peer),
			Unread: x.unread,
			LastMessage: LastMessage{ID: x.m.ID, Kind: x.m.Kind, Text: cut(x.m.Text, previewLen),
				At: x.m.CreatedAt, FromMe: x.m.From == me},
		})
	}
	return p, nil
}

// BlockedList is one page of the users I blocked, the latest first.
func (s *Service) BlockedList(ctx context.Context, me int64, num, size int) (httpx.Page[Blocked], error) {
	var total int
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM message_blocks WHERE user_id = ?`, me).Scan(&total); err != nil {
		return httpx.Page[Blocked]{}, err
	}
	p := httpx.NewPage[Blocked](nil, total, num, size)
	type row struct{ uid, at int64 }
	rows, err := db.All(ctx, s.db, func(r db.Scanner) (row, error) {
		var x row
		return x, r.Scan(&x.uid, &x.at)
	}, `SELECT blocked_id, created_at FROM message_blocks WHERE user_id = ? ORDER BY created_at DESC, blocked_id DESC LIMIT ? OFFSET ?`, me, size, (num-1)*size)
	if err != nil {
		return p, err
	}
	uids := make([]int64, 0, len(rows))
	for _, x := range rows {
		uids = append(uids, x.uid)
	}
	people, err := s.lookup(ctx, uids)
	if err != nil {
		return p, err
	}
	for _, x := range rows {
		p.List = append(p.List, Blocked{Person: personOr(people, x.uid), At: time.Unix(x.at, 0).UTC()})
	}
	return p, nil
}

// ReportView is a report as operators see it, with the conversation's
// messages up to the report (newest first, at most reportContext).
type ReportView struct {
	ID        int64     `json:"id"`
	Reporter  Person    `json:"reporter"`
	Reported  Person    `json:"reported"`
	Reason    string    `json:"reason"`
	CreatedAt time.Time `json:"createdAt"`
	Messages  []Message `json:"messages"`
	// State is open until an operator handles it (ResolveReport), then
	// resolved with Resolution (dismiss or mute).
	State      string `json:"state"`
	Resolution string `json:"resolution"`
}

// reportContext is how many messages an operator sees with a report.
const reportContext = 20

// Reports is the operators' page of reports, newest first (by id, a
// keyset page after report id after, 0 for the first); reported > 0 keeps
// those about one user, state "" any. No count and no offset: a walk of
// message_reports_reported, message_reports_state or the primary key.
func (s *Service) Reports(ctx context.Context, reported int64, state string, after int64, size int) (httpx.KeyPage[ReportView], error) {
	var w db.Where
	if reported > 0 {
		w.And(`reported_id = ?`, reported)
	}
	if state != "" {
		w.And(`state = ?`, state)
	}
	if after > 0 {
		w.And(`id < ?`, after)
	}
	cond, args := w.Clause(), w.Args()
	p := httpx.KeyPage[ReportView]{List: []ReportView{}, PageSize: size}
	type row struct {
		v    ReportView
		last int64
	}
	rows, err := db.All(ctx, s.db, func(r db.Scanner) (row, error) {
		var x row
		var at int64
		err := r.Scan(&x.v.ID, &x.v.Reporter.UID, &x.v.Reported.UID, &x.v.Reason, &x.last, &at, &x.v.State, &x.v.Resolution)
		x.v.CreatedAt = time.Unix(at, 0).UTC()
		return x, err
	}, `SELECT id, reporter_id, reported_id, reason, last_message_id, created_at, state, resolution FROM message_reports`+cond+` ORDER BY id DESC LIMIT ?`,
		append(args, size+1)...)
	if err != nil {
		return p, err
	}
	if len(rows) > size {
		rows, p.HasMore = rows[:size], true
		c := httpx.Cursor(rows[size-1].v.ID)
		p.NextCursor = &c
	}
	var uids []int64
	for _, x := range rows {
		uids = append(uids, x.v.Reporter.UID, x.v.Reported.UID)
	}
	people, err := s.lookup(ctx, uids)
	if err != nil {
		return p, err
	}
	for _, x := range rows {
		v := x.v
		v.Reporter, v.Reported = personOr(people, v.Reporter.UID), personOr(people, v.Reported.UID)
		v.Messages = []Message{}
		if x.last > 0 {
			msgs, err := pairPage(ctx, s.db, v.Reporter.UID, v.Reported.UID, x.last+1, reportContext)
			if err != nil {
				return p, err
			}
			for _, m := range msgs {
				m, err := s.present(ctx, v.Reporter.UID, m)
				if err != nil {
					return p, err
				}
				v.Messages = append(v.Messages, m)
			}
		}
		p.List = append(p.List, v)
	}
	return p, nil
}
