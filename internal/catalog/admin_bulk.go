package catalog

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// MaxBulk bounds the videos of one bulk action.
const MaxBulk = 200

// BulkInput is one bulk action on videos: Action is "publish",
// "unpublish", "move" (to SubModuleID) or "tag"/"untag" (TagIDs added to
// or taken off each video).
type BulkInput struct {
	IDs         []int64
	Action      string
	SubModuleID int64
	TagIDs      []int64
}

// BulkResult names the videos the action changed (those already in the
// asked state are left out).
type BulkResult struct {
	Changed int     `json:"changed"`
	IDs     []int64 `json:"ids"`
}

func (in *BulkInput) check() error {
	if len(in.IDs) == 0 || len(in.IDs) > MaxBulk {
		return invalid(fmt.Sprintf("请选择 1 到 %d 个视频", MaxBulk), "ids must hold 1..200 video ids")
	}
	seen := map[int64]bool{}
	for _, id := range in.IDs {
		if id < 1 || id > httpx.MaxID {
			return invalid("参数 ids 无效", "ids must hold positive ids")
		}
		if seen[id] {
			return invalid(fmt.Sprintf("视频 %d 重复出现", id), "ids repeats "+strconv.FormatInt(id, 10))
		}
		seen[id] = true
	}
	switch in.Action {
	case "publish", "unpublish":
	case "move":
		if in.SubModuleID < 1 || in.SubModuleID > httpx.MaxID {
			return invalid("请选择要移到的子栏目", "move needs subModuleID")
		}
	case "tag", "untag":
		if len(in.TagIDs) == 0 || len(in.TagIDs) > MaxVideoTags {
			return invalid(fmt.Sprintf("请选择 1 到 %d 个标签", MaxVideoTags), "tag and untag need 1..20 tagIds")
		}
		tags := map[int64]bool{}
		for _, t := range in.TagIDs {
			if t < 1 || t > httpx.MaxID {
				return invalid("参数 tagIds 无效", "tagIds must hold positive ids")
			}
			if tags[t] {
				return invalid(fmt.Sprintf("标签 %d 重复出现", t), "tagIds repeats "+strconv.FormatInt(t, 10))
			}
			tags[t] = true
		}
	default:
		return invalid("操作应为 publish、unpublish、move、tag 或 untag", "action must be publish, unpublish, move, tag or untag")
	}
	return nil
}

// BulkVideos applies one action to every video of in.IDs in one
// transaction: every id must exist (else 404 and nothing changes), and
// each video the action changes gets the audit row its single call
// writes: "video.publish" / "video.unpublish", or "video.update" with the
// moved module ids or the tag ids before and after. Rows are locked in id
// order, so two bulk actions over the same videos cannot deadlock.
func (s *Service) BulkVideos(ctx context.Context, actor audit.Actor, in BulkInput) (BulkResult, error) {
	res := BulkResult{IDs: []int64{}}
	if err := in.check(); err != nil {
		return res, err
	}
	ids := slices.Clone(in.IDs)
	slices.Sort(ids)
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		res = BulkResult{IDs: []int64{}}
		var mod, sub int64
		switch in.Action {
		case "move":
			var err error
			if mod, sub, err = placement(ctx, tx, nil, in.SubModuleID); err != nil {
				return err
			}
		case "tag", "untag":
			for _, t := range in.TagIDs {
				var one int
				if err := tx.QueryRow(ctx, "SELECT 1 FROM tags WHERE id = ?", t).Scan(&one); err != nil {
					if errors.Is(db.NotFound(err), db.ErrNotFound) {
						return detailed(ErrNoTag, fmt.Sprintf("标签 %d 不存在", t), "no tag "+strconv.FormatInt(t, 10))
					}
					return err
				}
			}
		}
		now := s.now().Unix()
		for _, id := range ids {
			v, err := lockVideo(ctx, tx, id)
			if err != nil {
				return err
			}
			target := strconv.FormatInt(id, 10)
			var entry *audit.Entry
			switch in.Action {
			case "publish", "unpublish":
				on := in.Action == "publish"
				if v.Published == on {
					continue
				}
				if _, err := tx.Exec(ctx, "UPDATE videos SET published = ?, updated_at = ? WHERE id = ?", db.BoolInt(on), now, id); err != nil {
					return err
				}
				entry = &audit.Entry{Action: "video." + in.Action, Before: map[string]bool{"published": v.Published}, After: map[string]bool{"published": on}}
			case "move":
				if v.SubModuleID == sub && v.ModuleID == mod {
					continue
				}
				if _, err := tx.Exec(ctx, "UPDATE videos SET module_id = ?, sub_module_id = ?, updated_at = ? WHERE id = ?", mod, sub, now, id); err != nil {
					return err
				}
				before, after := map[string]any{"subModuleId": v.SubModuleID}, map[string]any{"subModuleId": sub}
				if v.ModuleID != mod {
					before["moduleId"], after["moduleId"] = v.ModuleID, mod
				}
				entry = &audit.Entry{Action: "video.update", Before: before, After: after}
			case "tag", "untag":
				old, err := tagIDs(ctx, tx, id)
				if err != nil {
					return err
				}
				var next []int64
				if in.Action == "tag" {
					next = slices.Clone(old)
					for _, t := range in.TagIDs {
						if !slices.Contains(next, t) {
							next = append(next, t)
						}
					}
					if len(next) > MaxVideoTags {
						return invalid(fmt.Sprintf("视频 %d 的标签将超过 %d 个", id, MaxVideoTags), "video "+target+" would have more than 20 tags")
					}
				} else {
					for _, t := range old {
						if !slices.Contains(in.TagIDs, t) {
							next = append(next, t)
						}
					}
				}
				if len(next) == len(old) {
					continue
				}
				if next == nil {
					next = []int64{}
				}
				if err := setTags(ctx, tx, id, next); err != nil {
					return err
				}
				slices.Sort(next)
				if _, err := tx.Exec(ctx, "UPDATE videos SET updated_at = ? WHERE id = ?", now, id); err != nil {
					return err
				}
				entry = &audit.Entry{Action: "video.update", Before: map[string]any{"tagIds": old}, After: map[string]any{"tagIds": next}}
			}
			if err := searchTouchVideo(ctx, tx, id); err != nil {
				return err
			}
			entry.Actor, entry.TargetType, entry.TargetID = actor, "video", target
			if err := audit.Record(ctx, tx, *entry); err != nil {
				return err
			}
			res.IDs = append(res.IDs, id)
		}
		res.Changed = len(res.IDs)
		if res.Changed > 0 {
			tx.AfterCommit(s.Invalidate)
		}
		return nil
	})
	if err != nil {
		return BulkResult{IDs: []int64{}}, err
	}
	return res, nil
}
