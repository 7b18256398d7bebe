package catalog

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

// AdminVideo is a video as operators see it: drafts too, with tag ids,
// size, media and publication state.
type AdminVideo struct {
	ID          int64      `json:"id"`
	Title       string     `json:"title"`
	Cover       string     `json:"cover"`
	Duration    int        `json:"duration"`
	Width       int        `json:"width"`
	Height      int        `json:"height"`
	PlayCount   int64      `json:"playCount"`
	LikeCount   int64      `json:"likeCount"`
	ModuleID    int64      `json:"moduleID"`
	SubModuleID int64      `json:"subModuleID"`
	VipLevel    int        `json:"vipLevel"`
	Coins       int64      `json:"coins"`
	Access      string     `json:"access"` // free | vip | svip | gold
	Published   bool       `json:"published"`
	MediaID     int64      `json:"mediaId"`
	Tags        []AdminTag `json:"tags"`
	CreatedAt   time.Time  `json:"createdAt"`
	UpdatedAt   time.Time  `json:"updatedAt"`
}

// accessName names a video's access level as the operator set it.
func accessName(vip int, coins int64) string {
	switch {
	case coins > 0:
		return "gold"
	case vip == 2:
		return "svip"
	case vip == 1:
		return "vip"
	}
	return "free"
}

const adminVideoCols = "id, title, cover, duration, width, height, play_count, like_count, module_id, sub_module_id, vip_level, coins, published, media_id, created_at, updated_at"

func scanAdminVideo(r db.Scanner) (AdminVideo, error) {
	var v AdminVideo
	var pub int
	var created, updated int64
	err := r.Scan(&v.ID, &v.Title, &v.Cover, &v.Duration, &v.Width, &v.Height, &v.PlayCount, &v.LikeCount, &v.ModuleID, &v.SubModuleID,
		&v.VipLevel, &v.Coins, &pub, &v.MediaID, &created, &updated)
	v.Published = pub == 1
	v.Access = accessName(v.VipLevel, v.Coins)
	v.CreatedAt, v.UpdatedAt = time.Unix(created, 0).UTC(), time.Unix(updated, 0).UTC()
	v.Tags = []AdminTag{}
	return v, err
}

func lockVideo(ctx context.Context, tx *db.Tx, id int64) (AdminVideo, error) {
	v, err := scanAdminVideo(tx.QueryRow(ctx, "SELECT "+adminVideoCols+" FROM videos WHERE id = ?"+tx.ForUpdate(), id))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return v, detailed(ErrNoVideo, "视频不存在", "no video "+strconv.FormatInt(id, 10))
	}
	return v, err
}

// adminTags fills in the tags of vs (id, name, sort) in tag order.
func adminTags(ctx context.Context, q db.Querier, vs []AdminVideo) error {
	if len(vs) == 0 {
		return nil
	}
	at := make(map[int64]int, len(vs))
	args := make([]any, len(vs))
	for i, v := range vs {
		at[v.ID], args[i] = i, v.ID
	}
	rows, err := q.Query(ctx, "SELECT vt.video_id, t.id, t.name, t.sort FROM video_tags vt JOIN tags t ON t.id = vt.tag_id WHERE vt.video_id IN ("+
		db.Placeholders(len(args))+") ORDER BY vt.video_id, t.sort, t.id", args...)
	if err != nil {
		return err
	}
	defer rows.Close()
	for rows.Next() {
		var vid int64
		var t AdminTag
		if err := rows.Scan(&vid, &t.ID, &t.Name, &t.Sort); err != nil {
			return err
		}
		vs[at[vid]].Tags = append(vs[at[vid]].Tags, t)
	}
	return rows.Err()
}

// AdminVideo reads one video, draft or not.
func (s *Service) AdminVideo(ctx context.Context, id int64) (AdminVideo, error) {
	v, err := scanAdminVideo(s.db.QueryRow(ctx, "SELECT "+adminVideoCols+" FROM videos WHERE id = ?", id))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return v, detailed(ErrNoVideo, "视频不存在", "no video "+strconv.FormatInt(id, 10))
	}
	if err != nil {
		return v, err
	}
	vs := []AdminVideo{v}
	err = adminTags(ctx, s.db, vs)
	return vs[0], err
}

// VideoInput is a new video or, in UpdateVideo, the fields to change (nil
// stays). CoverID names an uploaded picture (0 clears the cover); TagIDs
// replaces the video's tags.
type VideoInput struct {
	Title       *string
	ModuleID    *int64
	SubModuleID *int64
	TagIDs      *[]int64
	CoverID     *int64
	VipLevel    *int64
	Coins       *int64
	Duration    *int64
	Width       *int64
	Height      *int64
	Published   *bool
}

// check validates the values given, in field order, before anything is read.
func (in *VideoInput) check() error {
	if in.Title != nil {
		t, err := cleanText("title", "标题", *in.Title, MaxTitle)
		if err != nil {
			return err
		}
		in.Title = &t
	}
	if in.VipLevel != nil && (*in.VipLevel < 0 || *in.VipLevel > 2) {
		return invalid("会员等级应为 0（免费）、1（VIP）或 2（超级VIP）", "vipLevel must be 0, 1 or 2")
	}
	if in.Coins != nil && (*in.Coins < 0 || *in.Coins > MaxCoins) {
		return invalid(fmt.Sprintf("金币价格应在 0 到 %d 之间", MaxCoins), "coins is outside [0, 1000000]")
	}
	if in.Duration != nil && (*in.Duration < 0 || *in.Duration > MaxDuration) {
		return invalid("时长应在 0 到 86400 秒之间", "duration is outside [0, 86400]")
	}
	for _, d := range []struct {
		name string
		v    *int64
	}{{"width", in.Width}, {"height", in.Height}} {
		if d.v != nil && (*d.v < 0 || *d.v > MaxDimension) {
			return invalid(fmt.Sprintf("参数 %s 应在 0 到 %d 之间", d.name, MaxDimension), d.name+" is outside [0, 16384]")
		}
	}
	for _, id := range []struct {
		name string
		v    *int64
	}{{"moduleID", in.ModuleID}, {"subModuleID", in.SubModuleID}} {
		if id.v != nil && (*id.v < 1 || *id.v > httpx.MaxID) {
			return invalid("参数 "+id.name+" 无效", id.name+" must be a positive id")
		}
	}
	if in.CoverID != nil && (*in.CoverID < 0 || *in.CoverID > httpx.MaxID) {
		return invalid("参数 coverId 无效", "coverId must be a picture id, or 0 to clear the cover")
	}
	if in.TagIDs != nil {
		if len(*in.TagIDs) > MaxVideoTags {
			return invalid(fmt.Sprintf("标签最多 %d 个", MaxVideoTags), "more than 20 tagIds")
		}
		seen := map[int64]bool{}
		uniq := []int64{}
		for _, t := range *in.TagIDs {
			if t < 1 || t > httpx.MaxID {
				return invalid("参数 tagIds 无效", "tagIds must hold positive ids")
			}
			if !seen[t] {
				seen[t] = true
				uniq = append(uniq, t)
			}
		}
		in.TagIDs = &uniq
	}
	return nil
}

// placement resolves where a video goes: its sub-module (which must exist
// and be a sub-module) and module (its parent; a moduleID given must be
// that parent). Both rows are locked so a concurrent delete waits.
func placement(ctx context.Context, tx *db.Tx, moduleID *int64, subID int64) (mod, sub int64, err error) {
	sm, err := lockModule(ctx, tx, subID)
	if err != nil {
		if errors.Is(err, ErrNoModule) {
			return 0, 0, detailed(ErrNoModule, fmt.Sprintf("子栏目 %d 不存在", subID), "no sub-module "+strconv.FormatInt(subID, 10))
		}
		return 0, 0, err
	}
	if sm.PID == 0 {
		return 0, 0, invalid("请选择子栏目（视频放在子栏目下）", "subModuleID "+strconv.FormatInt(subID, 10)+" is a top-level module")
	}
	if moduleID != nil && *moduleID != sm.PID {
		if _, err := lockModule(ctx, tx, *moduleID); err != nil {
			if errors.Is(err, ErrNoModule) {
				return 0, 0, detailed(ErrNoModule, fmt.Sprintf("栏目 %d 不存在", *moduleID), "no module "+strconv.FormatInt(*moduleID, 10))
			}
			return 0, 0, err
		}
		return 0, 0, invalid("子栏目不属于所选栏目", fmt.Sprintf("sub-module %d belongs to module %d, not %d", subID, sm.PID, *moduleID))
	}
	parent, err := lockModule(ctx, tx, sm.PID)
	if err != nil {
		return 0, 0, err
	}
	if parent.Type == imageModuleType {
		return 0, 0, invalid("图片栏目只能放图集，不能放视频", "module type 3 holds galleries")
	}
	return sm.PID, subID, nil
}

// setTags replaces video id's tags with ids, each of which must exist.
func setTags(ctx context.Context, tx *db.Tx, id int64, ids []int64) error {
	for _, t := range ids {
		var one int
		if err := tx.QueryRow(ctx, "SELECT 1 FROM tags WHERE id = ?", t).Scan(&one); errors.Is(db.NotFound(err), db.ErrNotFound) {
			return detailed(ErrNoTag, fmt.Sprintf("标签 %d 不存在", t), "no tag "+strconv.FormatInt(t, 10))
		} else if err != nil {
			return err
		}
	}
	if _, err := tx.Exec(ctx, "DELETE FROM video_tags WHERE video_id = ?", id); err != nil {
		return err
	}
	for _, t := range ids {
		if err := TagVideo(ctx, tx, id, t); err != nil {
			return err
		}
	}
	return nil
}

func tagIDs(ctx context.Context, q db.Querier, id int64) ([]int64, error) {
	return db.All(ctx, q, func(r db.Scanner) (int64, error) {
		var t int64
		err := r.Scan(&t)
		return t, err
	}, "SELECT tag_id FROM video_tags WHERE video_id = ? ORDER BY tag_id", id)
}

// publishCover copies picture coverID to a public cover before the
// transaction (a blob cannot be rolled back); undo deletes it again and is
// to be called when the transaction fails.
func (s *Service) publishCover(ctx context.Context, coverID *int64) (url string, undo func(), err error) {
	undo = func() {}
	if coverID == nil || *coverID == 0 {
		return "", undo, nil
	}
	url, err = s.Covers.PublishCover(ctx, *coverID)
	switch {
	case errors.Is(err, ErrCoverNotFound):
		return "", undo, detailed(ErrCoverNotFound, fmt.Sprintf("封面图片 %d 不存在", *coverID), "no picture "+strconv.FormatInt(*coverID, 10))
	case errors.Is(err, ErrCoverNotImage):
		return "", undo, invalid("封面必须是上传成功的图片", "asset "+strconv.FormatInt(*coverID, 10)+" is not a ready picture")
	case err != nil:
		return "", undo, err
	}
	return url, func() { s.removeCover(ctx, url) }, nil
}

func (s *Service) removeCover(ctx context.Context, url string) {
	if url == "" {
		return
	}
	if err := s.Covers.RemoveCover(context.WithoutCancel(ctx), url); err != nil {
		slog.ErrorContext(ctx, "catalog: removing a cover", "url", url, "err", err)
	}
}

// CreateVideo adds a video, a draft unless Published is true, audited as
// "video.create". SubModuleID and Title are required.
func (s *Service) CreateVideo(ctx context.Context, actor audit.Actor, in VideoInput) (AdminVideo, error) {
	if in.Title == nil {
		return AdminVideo{}, invalid("请输入标题", "title is required")
	}
	if in.SubModuleID == nil {
		return AdminVideo{}, invalid("请选择子栏目", "subModuleID is required")
	}
	if err := in.check(); err != nil {
		return AdminVideo{}, err
	}
	cover, undo, err := s.publishCover(ctx, in.CoverID)
	if err != nil {
		return AdminVideo{}, err
	}
	val := func(p *int64) int64 {
		if p == nil {
			return 0
		}
		return *p
	}
	var id int64
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		mod, sub, err := placement(ctx, tx, in.ModuleID, *in.SubModuleID)
		if err != nil {
			return err
		}
		nv := NewVideo{Title: *in.Title, Cover: cover, Duration: int(val(in.Duration)), ModuleID: mod, SubModuleID: sub,
			VipLevel: int(val(in.VipLevel)), Coins: val(in.Coins), Width: int(val(in.Width)), Height: int(val(in.Height)),
			Published: in.Published != nil && *in.Published, CreatedAt: s.now().Unix()}
		if id, err = InsertVideo(ctx, tx, nv); err != nil {
			return err
		}
		tags := []int64{}
		if in.TagIDs != nil {
			tags = *in.TagIDs
			if err := setTags(ctx, tx, id, tags); err != nil {
				return err
			}
		}
		if err := searchTouchVideo(ctx, tx, id); err != nil {
			return err
		}
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "video.create", TargetType: "video", TargetID: strconv.FormatInt(id, 10),
			After: map[string]any{"title": nv.Title, "moduleId": mod, "subModuleId": sub, "tagIds": tags, "cover": cover, "coverId": val(in.CoverID),
				"vipLevel": nv.VipLevel, "coins": nv.Coins, "duration": nv.Duration, "width": nv.Width, "height": nv.Height, "published": nv.Published}})
	})
	if err != nil {
		undo()
		return AdminVideo{}, err
	}
	return s.AdminVideo(ctx, id)
}

// UpdateVideo changes the fields of in that are set, audited as
// "video.update" with the changed fields before and after (nothing
// changed: no row). Moving a video takes subModuleID (its module follows).
func (s *Service) UpdateVideo(ctx context.Context, actor audit.Actor, id int64, in VideoInput) (AdminVideo, error) {
	if err := in.check(); err != nil {
		return AdminVideo{}, err
	}
	if in.ModuleID != nil && in.SubModuleID == nil {
		in.SubModuleID = new(int64) // resolved below from the current sub-module
		*in.SubModuleID = -1
	}
	cover, undo, err := s.publishCover(ctx, in.CoverID)
	if err != nil {
		return AdminVideo{}, err
	}
	var oldCover string
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		v, err := lockVideo(ctx, tx, id)
		if err != nil {
			return err
		}
		before, after := map[string]any{}, map[string]any{}
		set := func(name string, old, new any) {
			if old != new {
				before[name], after[name] = old, new
			}
		}
		n := v
		if in.Title != nil {
			n.Title = *in.Title
		}
		if in.SubModuleID != nil {
			sub := *in.SubModuleID
			if sub == -1 {
				sub = v.SubModuleID
			}
			if n.ModuleID, n.SubModuleID, err = placement(ctx, tx, in.ModuleID, sub); err != nil {
				return err
			}
		}
		if in.CoverID != nil {
			n.Cover = cover
		}
		if in.VipLevel != nil {
			n.VipLevel = int(*in.VipLevel)
		}
		if in.Coins != nil {
			n.Coins = *in.Coins
		}
		if in.Duration != nil {
			n.Duration = int(*in.Duration)
		}
		if in.Width != nil {
			n.Width = int(*in.Width)
		}
		if in.Height != nil {
			n.Height = int(*in.Height)
		}
		if in.Published != nil {
			n.Published = *in.Published
		}
		set("title", v.Title, n.Title)
		set("moduleId", v.ModuleID, n.ModuleID)
		set("subModuleId", v.SubModuleID, n.SubModuleID)
		set("cover", v.Cover, n.Cover)
		set("vipLevel", v.VipLevel, n.VipLevel)
		set("coins", v.Coins, n.Coins)
		set("duration", v.Duration, n.Duration)
		set("width", v.Width, n.Width)
		set("height", v.Height, n.Height)
		set("published", v.Published, n.Published)
		if in.TagIDs != nil {
			old, err := tagIDs(ctx, tx, id)
			if err != nil {
				return err
			}
			if err := setTags(ctx, tx, id, *in.TagIDs); err != nil {
				return err
			}
			now, err := tagIDs(ctx, tx, id)
			if err != nil {
				return err
			}
			if fmt.Sprint(old) != fmt.Sprint(now) {
				before["tagIds"], after["tagIds"] = old, now
			}
		}
		if len(after) == 0 {
			return nil
		}
		if in.CoverID != nil {
			after["coverId"] = *in.CoverID
		}
		_, err = tx.Exec(ctx, `UPDATE videos SET title = ?, module_id = ?, sub_module_id = ?, cover = ?, vip_level = ?, coins = ?,
			duration = ?, width = ?, height = ?, published = ?, updated_at = ? WHERE id = ?`,
			n.Title, n.ModuleID, n.SubModuleID, n.Cover, n.VipLevel, n.Coins, n.Duration, n.Width, n.Height, db.BoolInt(n.Published), s.now().Unix(), id)
		if err != nil {
			return err
		}
		if err := searchTouchVideo(ctx, tx, id); err != nil {
			return err
		}
		if n.Cover != v.Cover {
			oldCover = v.Cover
		}
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "video.update", TargetType: "video", TargetID: strconv.FormatInt(id, 10), Before: before, After: after})
	})
	if err != nil {
		undo()
		return AdminVideo{}, err
	}
	s.removeOwnCover(ctx, oldCover)
	return s.AdminVideo(ctx, id)
}

// removeOwnCover deletes a replaced cover when it is one of ours (under
// /media/covers/); a cover is never shared between videos.
func (s *Service) removeOwnCover(ctx context.Context, url string) {
	if strings.HasPrefix(url, "/media/covers/") {
		s.removeCover(ctx, url)
	}
}

// SetPublished publishes or unpublishes video id, audited as
// "video.publish" or "video.unpublish" when the state changed. The row is
// locked, so two operators toggling at once leave a state that is the
// last one's, with one audit row per real change.
func (s *Service) SetPublished(ctx context.Context, actor audit.Actor, id int64, on bool) (AdminVideo, error) {
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		v, err := lockVideo(ctx, tx, id)
		if err != nil {
			return err
		}
		if v.Published == on {
			return nil
		}
		pub, action := db.BoolInt(on), "video.unpublish"
		if on {
			action = "video.publish"
		}
		if _, err := tx.Exec(ctx, "UPDATE videos SET published = ?, updated_at = ? WHERE id = ? AND published <> ?", pub, s.now().Unix(), id, pub); err != nil {
			return err
		}
		if err := searchTouchVideo(ctx, tx, id); err != nil {
			return err
		}
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: action, TargetType: "video", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]bool{"published": v.Published}, After: map[string]bool{"published": on}})
	})
	if err != nil {
		return AdminVideo{}, err
	}
	return s.AdminVideo(ctx, id)
}

// DeleteVideo removes an unpublished video (a published one must be
// unpublished first: 409) with its tags and every user's likes,
// favourites, history and reports of it, in one transaction audited as
// "video.delete"; its cover file goes after the commit. Its media asset
// stays (it may be attached again).
func (s *Service) DeleteVideo(ctx context.Context, actor audit.Actor, id int64) error {
	var cover string
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		v, err := lockVideo(ctx, tx, id)
		if err != nil {
			return err
		}
		if v.Published {
			return detailed(ErrInUse, "请先下架视频再删除", "video "+strconv.FormatInt(id, 10)+" is published; unpublish it first")
		}
		removed := map[string]int64{}
		for _, t := range []string{"video_tags", "video_likes", "video_collects", "video_history", "video_reports"} {
			res, err := tx.Exec(ctx, "DELETE FROM "+t+" WHERE video_id = ?", id)
			if err != nil {
				return err
			}
			if removed[t], err = res.RowsAffected(); err != nil {
				return err
			}
		}
		if _, err := tx.Exec(ctx, "DELETE FROM videos WHERE id = ?", id); err != nil {
			return fkConflict(err, "视频仍被其他记录引用，不能删除，请保持下架")
		}
		if err := searchTouchVideo(ctx, tx, id); err != nil {
			return err
		}
		cover = v.Cover
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "video.delete", TargetType: "video", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]any{"title": v.Title, "moduleId": v.ModuleID, "subModuleId": v.SubModuleID, "cover": v.Cover,
				"vipLevel": v.VipLevel, "coins": v.Coins, "mediaId": v.MediaID, "playCount": v.PlayCount, "likeCount": v.LikeCount},
			After: map[string]any{"removedRows": removed}})
	})
	if err == nil {
		s.removeOwnCover(ctx, cover)
	}
	return err
}
