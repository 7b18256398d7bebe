package community

// The operator's topics (GET/POST /api/admin/community/topics): create,
// rename, describe, cover, order and hide. A cover is an uploaded picture
// published at a public, immutable URL the way catalog covers and account
// portraits are (media.Service.PublishCover); the copy is made before the
// transaction (a file cannot be rolled back) and deleted again when the
// transaction fails or a later cover replaces it. A hidden topic (status
// 0) leaves every user list and its page answers 404 (the feeds' calls
// read status = 1 only).

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"unicode/utf8"

	"prima/internal/catalog"
	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
	"prima/internal/search"
)

// Bounds of a topic.
const (
	TopicNameMin = 2
	TopicNameMax = 20
	TopicDescMax = 200
	TopicSortMax = 1_000_000
)

// AdminTopic is a topic as operators see it, hidden ones too.
type AdminTopic struct {
	ID          int64  `json:"id"`
	Name        string `json:"name"`
	Description string `json:"description"`
	Cover       string `json:"cover"`
	Sort        int64  `json:"sort"`
	Status      int    `json:"status"` // 1 shown, 0 hidden
	PostCount   int64  `json:"postCount"`
	FollowCount int64  `json:"followCount"`
	CreatedAt   int64  `json:"createdAt"`
}

// TopicInput is a create or an update: nil fields are left as they are
// (on create: name is required, the rest default to empty, 0 and shown).
// CoverID 0 clears the cover.
type TopicInput struct {
	Name        *string
	Description *string
	CoverID     *int64
	Sort        *int64
	Status      *int64
}

const adminTopicCols = `t.id, t.name, t.description, t.cover, t.sort, t.status, t.created_at,
	(SELECT COUNT(*) FROM posts p WHERE p.topic_id = t.id AND p.state = 'published'),
	(SELECT COUNT(*) FROM topic_follows f WHERE f.topic_id = t.id)`

func scanAdminTopic(sc db.Scanner) (AdminTopic, error) {
	var t AdminTopic
	err := sc.Scan(&t.ID, &t.Name, &t.Description, &t.Cover, &t.Sort, &t.Status, &t.CreatedAt, &t.PostCount, &t.FollowCount)
	return t, err
}

// check trims and validates the fields that are set.
func (in *TopicInput) check() error {
	if in.Name != nil {
		n := strings.TrimSpace(*in.Name)
		if c := utf8.RuneCountInString(n); c < TopicNameMin || c > TopicNameMax {
			return modInvalid(fmt.Sprintf("话题名称应为 %d 到 %d 个字", TopicNameMin, TopicNameMax), "name must be 2-20 characters")
		}
		if strings.ContainsAny(n, "#\n\t") {
			return modInvalid("话题名称不能包含 # 或换行", "name may not hold # or line breaks")
		}
		in.Name = &n
	}
	if in.Description != nil {
		d := strings.TrimSpace(*in.Description)
		if utf8.RuneCountInString(d) > TopicDescMax {
			return modInvalid(fmt.Sprintf("话题简介不能超过 %d 个字", TopicDescMax), "description is longer than 200 characters")
		}
		in.Description = &d
	}
	if in.CoverID != nil && (*in.CoverID < 0 || *in.CoverID > httpx.MaxID) {
		return modInvalid("参数 cover 无效", "cover must be 0 (none) or an uploaded picture's id")
	}
	if in.Sort != nil && (*in.Sort < 0 || *in.Sort > TopicSortMax) {
		return modInvalid(fmt.Sprintf("排序应在 0 到 %d 之间", TopicSortMax), "sort is outside [0, 1000000]")
	}
	if in.Status != nil && *in.Status != 0 && *in.Status != 1 {
		return modInvalid("参数 status 无效", "status must be 1 (shown) or 0 (hidden)")
	}
	return nil
}

// AdminTopics lists every topic, shown and hidden, by sort then id.
func (s *Service) AdminTopics(ctx context.Context, pageNumber, pageSize int) (httpx.Page[AdminTopic], error) {
	page := httpx.Page[AdminTopic]{List: []AdminTopic{}, PageNumber: pageNumber, PageSize: pageSize}
	if err := s.db.QueryRow(ctx, `SELECT COUNT(*) FROM topics`).Scan(&page.Total); err != nil {
		return page, err
	}
	offset := (pageNumber - 1) * pageSize
	list, err := db.All(ctx, s.db, scanAdminTopic, `SELECT `+adminTopicCols+` FROM topics t ORDER BY t.sort DESC, t.id LIMIT ? OFFSET ?`, pageSize, offset)
	if err != nil {
		return page, err
	}
	page.List = list
	page.HasMore = offset+len(list) < page.Total
	return page, nil
}

func (s *Service) adminTopic(ctx context.Context, q db.Querier, id int64) (AdminTopic, error) {
	t, err := scanAdminTopic(q.QueryRow(ctx, `SELECT `+adminTopicCols+` FROM topics t WHERE t.id = ?`, id))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return t, modErr(ErrNoTopic, "no topic "+strconv.FormatInt(id, 10))
	}
	return t, err
}

// topicCover publishes picture id as a public cover; undo deletes it.
func (s *Service) topicCover(ctx context.Context, id *int64) (url string, undo func(), err error) {
	undo = func() {}
	if id == nil || *id == 0 {
		return "", undo, nil
	}
	if s.Media == nil {
		return "", undo, modInvalid("封面上传暂不可用", "the media pipeline is not configured")
	}
	url, err = s.Media.PublishCover(ctx, *id)
	switch {
	case errors.Is(err, catalog.ErrCoverNotFound):
		return "", undo, httpx.Refuse(catalog.ErrCoverNotFound, fmt.Sprintf("封面图片 %d 不存在", *id), "no picture "+strconv.FormatInt(*id, 10))
	case errors.Is(err, catalog.ErrCoverNotImage):
		return "", undo, modInvalid("封面必须是上传成功的图片", "asset "+strconv.FormatInt(*id, 10)+" is not a ready picture")
	case err != nil:
		return "", undo, err
	}
	return url, func() { s.dropTopicCover(ctx, url) }, nil
}

// dropTopicCover deletes a cover this service published (under
// /media/covers/); failures are logged, a stray file harms no one.
func (s *Service) dropTopicCover(ctx context.Context, url string) {
	if s.Media == nil || !strings.HasPrefix(url, "/media/covers/") {
		return
	}
	if err := s.Media.RemoveCover(context.WithoutCancel(ctx), url); err != nil {
		slog.ErrorContext(ctx, "community: removing a topic cover", "url", url, "err", err)
	}
}

func topicNameTaken(err error) error {
	if db.IsUnique(err) {
		return ErrTopicTaken
	}
	return err
}

// topicNameFree checks that no other topic has name in another letter
// case ("Cats" and "cats" are one topic to a reader); the table's UNIQUE
// catches the exact match, also under a race.
func topicNameFree(ctx context.Context, tx *db.Tx, name string, self int64) error {
	var n int
	if err := tx.QueryRow(ctx, `SELECT COUNT(*) FROM topics WHERE LOWER(name) = LOWER(?) AND id <> ?`, name, self).Scan(&n); err != nil {
		return err
	}
	if n > 0 {
		return ErrTopicTaken
	}
	return nil
}

// CreateTopic adds a topic (shown unless Status is 0), audited as
// "topic.create". A name in use is 409.
func (s *Service) CreateTopic(ctx context.Context, actor audit.Actor, in TopicInput) (AdminTopic, error) {
	if in.Name == nil {
		return AdminTopic{}, modInvalid("请输入话题名称", "name is required")
	}
	if err := in.check(); err != nil {
		return AdminTopic{}, err
	}
	cover, undo, err := s.topicCover(ctx, in.CoverID)
	if err != nil {
		return AdminTopic{}, err
	}
	val := func(p *int64, def int64) int64 {
		if p == nil {
			return def
		}
		return *p
	}
	desc := ""
	if in.Description != nil {
		desc = *in.Description
	}
	now := s.now()
	var id int64
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if err := topicNameFree(ctx, tx, *in.Name, 0); err != nil {
			return err
		}
		err := tx.QueryRow(ctx, `INSERT INTO topics (name, description, cover, sort, status, created_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
			*in.Name, desc, cover, val(in.Sort, 0), val(in.Status, 1), now.Unix()).Scan(&id)
		if err != nil {
			return topicNameTaken(err)
		}
		if err := search.Touch(ctx, tx, search.KindTopic, id); err != nil {
			return err
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "topic.create", TargetType: "topic", TargetID: strconv.FormatInt(id, 10),
			After: map[string]any{"name": *in.Name, "description": desc, "cover": cover, "sort": val(in.Sort, 0), "status": val(in.Status, 1)}}, now)
	})
	if err != nil {
		undo()
		return AdminTopic{}, err
	}
	return s.adminTopic(ctx, s.db, id)
}

// UpdateTopic changes the fields of in that are set, audited as
// "topic.update" with the changed fields (nothing changed: no row). A new
// cover replaces the old file, which is deleted after the commit.
func (s *Service) UpdateTopic(ctx context.Context, actor audit.Actor, id int64, in TopicInput) (AdminTopic, error) {
	if err := in.check(); err != nil {
		return AdminTopic{}, err
	}
	cover, undo, err := s.topicCover(ctx, in.CoverID)
	if err != nil {
		return AdminTopic{}, err
	}
	now := s.now()
	var old string
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var t AdminTopic
		err := tx.QueryRow(ctx, `SELECT id, name, description, cover, sort, status FROM topics WHERE id = ?`+tx.ForUpdate(), id).
			Scan(&t.ID, &t.Name, &t.Description, &t.Cover, &t.Sort, &t.Status)
		if errors.Is(db.NotFound(err), db.ErrNotFound) {
			return modErr(ErrNoTopic, "no topic "+strconv.FormatInt(id, 10))
		}
		if err != nil {
			return err
		}
		before, after := map[string]any{}, map[string]any{}
		next := t
		if in.Name != nil && *in.Name != t.Name {
			if err := topicNameFree(ctx, tx, *in.Name, id); err != nil {
				return err
			}
			before["name"], after["name"], next.Name = t.Name, *in.Name, *in.Name
		}
		if in.Description != nil && *in.Description != t.Description {
			before["description"], after["description"], next.Description = t.Description, *in.Description, *in.Description
		}
		if in.CoverID != nil && cover != t.Cover {
			before["cover"], after["cover"], next.Cover = t.Cover, cover, cover
		}
		if in.Sort != nil && *in.Sort != t.Sort {
			before["sort"], after["sort"], next.Sort = t.Sort, *in.Sort, *in.Sort
		}
		if in.Status != nil && int(*in.Status) != t.Status {
			before["status"], after["status"], next.Status = t.Status, *in.Status, int(*in.Status)
		}
		if len(after) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, `UPDATE topics SET name = ?, description = ?, cover = ?, sort = ?, status = ? WHERE id = ?`,
			next.Name, next.Description, next.Cover, next.Sort, next.Status, id); err != nil {
			return topicNameTaken(err)
		}
		if err := search.Touch(ctx, tx, search.KindTopic, id); err != nil {
			return err
		}
		if next.Cover != t.Cover {
			old = t.Cover
		}
		return audit.RecordAt(ctx, tx, audit.Entry{Actor: actor, Action: "topic.update", TargetType: "topic", TargetID: strconv.FormatInt(id, 10),
			Before: before, After: after}, now)
	})
	if err != nil {
		undo()
		return AdminTopic{}, err
	}
	if old != "" {
		s.dropTopicCover(ctx, old)
	}
	return s.adminTopic(ctx, s.db, id)
}
