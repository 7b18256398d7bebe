package catalog

import (
	"context"
	"errors"
	"strconv"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
)

// AdminTag is a tag with how many videos carry it.
type AdminTag struct {
	ID         int64  `json:"id"`
	Name       string `json:"name"`
	Sort       int    `json:"sort"`
	VideoCount int    `json:"videoCount"`
}

// AdminTags lists every tag in sort order with its video count.
func (s *Service) AdminTags(ctx context.Context) ([]AdminTag, error) {
	return db.All(ctx, s.db, func(r db.Scanner) (AdminTag, error) {
		var t AdminTag
		err := r.Scan(&t.ID, &t.Name, &t.Sort, &t.VideoCount)
		return t, err
	}, "SELECT t.id, t.name, t.sort, (SELECT COUNT(*) FROM video_tags vt WHERE vt.tag_id = t.id) FROM tags t ORDER BY t.sort, t.id")
}

func lockTag(ctx context.Context, tx *db.Tx, id int64) (AdminTag, error) {
	var t AdminTag
	err := tx.QueryRow(ctx, "SELECT id, name, sort FROM tags WHERE id = ?"+tx.ForUpdate(), id).Scan(&t.ID, &t.Name, &t.Sort)
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return t, detailed(ErrNoTag, "标签不存在", "no tag "+strconv.FormatInt(id, 10))
	}
	return t, err
}

// CreateTag adds a tag (409 when the name is taken), audited as "tag.create".
func (s *Service) CreateTag(ctx context.Context, actor audit.Actor, name string, sort int64) (AdminTag, error) {
	name, err := cleanText("name", "标签名称", name, MaxTagName)
	if err != nil {
		return AdminTag{}, err
	}
	if err := checkSort(sort); err != nil {
		return AdminTag{}, err
	}
	t := AdminTag{Name: name, Sort: int(sort)}
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if t.ID, err = InsertTag(ctx, tx, name, int(sort), s.now().Unix()); err != nil {
			if db.IsUnique(err) {
				return ErrTagTaken
			}
			return err
		}
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "tag.create", TargetType: "tag", TargetID: strconv.FormatInt(t.ID, 10),
			After: map[string]any{"name": name, "sort": sort}})
	})
	return t, err
}

// UpdateTag renames or reorders tag id, audited as "tag.update".
func (s *Service) UpdateTag(ctx context.Context, actor audit.Actor, id int64, c ModuleChange) (AdminTag, error) {
	var name string
	var err error
	if c.Name != nil {
		if name, err = cleanText("name", "标签名称", *c.Name, MaxTagName); err != nil {
			return AdminTag{}, err
		}
	}
	if c.Sort != nil {
		if err := checkSort(*c.Sort); err != nil {
			return AdminTag{}, err
		}
	}
	var t AdminTag
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if t, err = lockTag(ctx, tx, id); err != nil {
			return err
		}
		before, after := map[string]any{}, map[string]any{}
		if c.Name != nil && name != t.Name {
			before["name"], after["name"], t.Name = t.Name, name, name
		}
		if c.Sort != nil && int(*c.Sort) != t.Sort {
			before["sort"], after["sort"], t.Sort = t.Sort, *c.Sort, int(*c.Sort)
		}
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM video_tags WHERE tag_id = ?", id).Scan(&t.VideoCount); err != nil {
			return err
		}
		if len(after) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, "UPDATE tags SET name = ?, sort = ? WHERE id = ?", t.Name, t.Sort, id); err != nil {
			if db.IsUnique(err) {
				return ErrTagTaken
			}
			return err
		}
		if after["name"] != nil {
			tagged, err := searchTagVideos(ctx, tx, id)
			if err != nil {
				return err
			}
			if err := searchTouchVideos(ctx, tx, tagged); err != nil {
				return err
			}
		}
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "tag.update", TargetType: "tag", TargetID: strconv.FormatInt(id, 10), Before: before, After: after})
	})
	return t, err
}

// DeleteTag removes tag id and takes it off every video in the same
// transaction, audited as "tag.delete" (after: how many videos lost it).
func (s *Service) DeleteTag(ctx context.Context, actor audit.Actor, id int64) (int64, error) {
	var n int64
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		t, err := lockTag(ctx, tx, id)
		if err != nil {
			return err
		}
		tagged, err := searchTagVideos(ctx, tx, id)
		if err != nil {
			return err
		}
		res, err := tx.Exec(ctx, "DELETE FROM video_tags WHERE tag_id = ?", id)
		if err != nil {
			return err
		}
		if n, err = res.RowsAffected(); err != nil {
			return err
		}
		if _, err := tx.Exec(ctx, "DELETE FROM tags WHERE id = ?", id); err != nil {
			return fkConflict(err, "标签仍被其他内容使用")
		}
		if err := searchTouchVideos(ctx, tx, tagged); err != nil {
			return err
		}
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "tag.delete", TargetType: "tag", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]any{"name": t.Name, "sort": t.Sort}, After: map[string]any{"untaggedVideos": n}})
	})
	return n, err
}
