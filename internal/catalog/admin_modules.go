package catalog

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"time"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
)

// AdminModule is a top-level module as operators see it, with counts.
type AdminModule struct {
	ID             int64         `json:"id"`
	PID            int64         `json:"pid"`
	Name           string        `json:"name"`
	Type           int           `json:"moduleType"`
	Sort           int           `json:"sort"`
	VideoCount     int           `json:"videoCount"`     // every video, drafts included
	PublishedCount int           `json:"publishedCount"` // the published ones
	SubModules     []AdminModule `json:"subModules,omitempty"`
	CreatedAt      time.Time     `json:"createdAt"`
}

func scanAdminModule(r db.Scanner) (AdminModule, error) {
	var m AdminModule
	var at int64
	err := r.Scan(&m.ID, &m.PID, &m.Name, &m.Type, &m.Sort, &at)
	m.CreatedAt = time.Unix(at, 0).UTC()
	return m, err
}

const adminModuleCols = "id, pid, name, module_type, sort, created_at"

func lockModule(ctx context.Context, tx *db.Tx, id int64) (AdminModule, error) {
	m, err := scanAdminModule(tx.QueryRow(ctx, "SELECT "+adminModuleCols+" FROM modules WHERE id = ?"+tx.ForUpdate(), id))
	if errors.Is(db.NotFound(err), db.ErrNotFound) {
		return m, detailed(ErrNoModule, "栏目不存在", "no module "+strconv.FormatInt(id, 10))
	}
	return m, err
}

// AdminModules lists every module in sort order, each top-level one with
// its sub-modules, and how many videos each holds.
func (s *Service) AdminModules(ctx context.Context) ([]AdminModule, error) {
	all, err := db.All(ctx, s.db, scanAdminModule, "SELECT "+adminModuleCols+" FROM modules ORDER BY pid, sort, id")
	if err != nil {
		return nil, err
	}
	counts, err := s.subModuleCounts(ctx)
	if err != nil {
		return nil, err
	}
	type count struct{ all, pub int }
	bySub, byMod := map[int64]count{}, map[int64]count{}
	parent := map[int64]int64{}
	for _, m := range all {
		parent[m.ID] = m.PID
	}
	for sub, c := range counts {
		bySub[sub] = count{c[0], c[1]}
		// A video's module is its sub-module's parent (placement); a row
		// filed under a top-level module counts for that module.
		mod := sub
		if p := parent[sub]; p != 0 {
			mod = p
		}
		m := byMod[mod]
		byMod[mod] = count{m.all + c[0], m.pub + c[1]}
	}
	out := []AdminModule{}
	at := map[int64]int{}
	for _, m := range all {
		if m.PID == 0 {
			c := byMod[m.ID]
			m.VideoCount, m.PublishedCount, m.SubModules = c.all, c.pub, []AdminModule{}
			at[m.ID] = len(out)
			out = append(out, m)
		}
	}
	for _, m := range all {
		if i, ok := at[m.PID]; ok && m.PID != 0 {
			c := bySub[m.ID]
			m.VideoCount, m.PublishedCount = c.all, c.pub
			out[i].SubModules = append(out[i].SubModules, m)
		}
	}
	return out, nil
}

// moduleCountTTL is how long the operators' module counts are reused on a
// node; a change on this node drops them at once (Invalidate).
const moduleCountTTL = 15 * time.Second

// subModuleCounts is every sub-module's videos, [all, published], by id:
// one pass over the (sub_module_id, published) index (migration 0058),
// cached for moduleCountTTL (over a million videos the pass takes about
// 0.1 s on SQLite, too long for every page that names modules).
func (s *Service) subModuleCounts(ctx context.Context) (map[int64][2]int, error) {
	if c, ok := s.moduleCounts.get(0); ok {
		return c, nil
	}
	out := map[int64][2]int{}
	rows, err := s.db.Query(ctx, "SELECT sub_module_id, published, COUNT(*) FROM videos GROUP BY sub_module_id, published")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var sub int64
		var pub, n int
		if err := rows.Scan(&sub, &pub, &n); err != nil {
			return nil, err
		}
		c := out[sub]
		c[0] += n
		if pub == 1 {
			c[1] += n
		}
		out[sub] = c
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	s.moduleCounts.put(0, out)
	return out, nil
}

// ModuleInput creates a module: a top-level one (PID 0) of Type 0..4, or a
// sub-module of PID, whose type is its parent's (Type, when given, must match).
type ModuleInput struct {
	PID  int64
	Name string
	Type *int64
	Sort int64
}

// CreateModule adds a module or sub-module, audited as "module.create".
func (s *Service) CreateModule(ctx context.Context, actor audit.Actor, in ModuleInput) (AdminModule, error) {
	name, err := cleanText("name", "栏目名称", in.Name, MaxModuleName)
	if err != nil {
		return AdminModule{}, err
	}
	if err := checkSort(in.Sort); err != nil {
		return AdminModule{}, err
	}
	if in.Type != nil && (*in.Type < 0 || *in.Type > 4) {
		return AdminModule{}, invalid("栏目类型应为 0-4（0 首页 1 社区 2 暗网 3 图片 4 短视频）", "moduleType must be 0..4")
	}
	if in.PID == 0 && in.Type == nil {
		return AdminModule{}, invalid("请选择栏目类型", "moduleType is required for a top-level module")
	}
	var m AdminModule
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		mt := 0
		if in.Type != nil {
			mt = int(*in.Type)
		}
		if in.PID != 0 {
			parent, err := lockModule(ctx, tx, in.PID)
			if err != nil {
				return err
			}
			if parent.PID != 0 {
				return invalid("子栏目下不能再建子栏目", "pid "+strconv.FormatInt(in.PID, 10)+" is a sub-module; modules have two levels")
			}
			if in.Type != nil && int(*in.Type) != parent.Type {
				return invalid("子栏目的类型跟随上级栏目", fmt.Sprintf("moduleType %d differs from the parent's %d", *in.Type, parent.Type))
			}
			mt = parent.Type
		}
		now := s.now().Unix()
		id, err := InsertModule(ctx, tx, in.PID, name, mt, int(in.Sort), now)
		if err != nil {
			return err
		}
		m = AdminModule{ID: id, PID: in.PID, Name: name, Type: mt, Sort: int(in.Sort), CreatedAt: time.Unix(now, 0).UTC()}
		if in.PID == 0 {
			m.SubModules = []AdminModule{}
		}
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "module.create", TargetType: "module", TargetID: strconv.FormatInt(id, 10),
			After: map[string]any{"pid": in.PID, "name": name, "moduleType": mt, "sort": in.Sort}})
	})
	return m, err
}

// ModuleChange renames or reorders a module; nil fields stay.
type ModuleChange struct {
	Name *string
	Sort *int64
}

// UpdateModule applies c to module id, audited as "module.update" with the
// fields that changed (nothing changed: no row).
func (s *Service) UpdateModule(ctx context.Context, actor audit.Actor, id int64, c ModuleChange) (AdminModule, error) {
	var name string
	var err error
	if c.Name != nil {
		if name, err = cleanText("name", "栏目名称", *c.Name, MaxModuleName); err != nil {
			return AdminModule{}, err
		}
	}
	if c.Sort != nil {
		if err := checkSort(*c.Sort); err != nil {
			return AdminModule{}, err
		}
	}
	var m AdminModule
	err = s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		var err error
		if m, err = lockModule(ctx, tx, id); err != nil {
			return err
		}
		before, after := map[string]any{}, map[string]any{}
		if c.Name != nil && name != m.Name {
			before["name"], after["name"], m.Name = m.Name, name, name
		}
		if c.Sort != nil && int(*c.Sort) != m.Sort {
			before["sort"], after["sort"], m.Sort = m.Sort, *c.Sort, int(*c.Sort)
		}
		if len(after) == 0 {
			return nil
		}
		if _, err := tx.Exec(ctx, "UPDATE modules SET name = ?, sort = ? WHERE id = ?", m.Name, m.Sort, id); err != nil {
			return err
		}
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "module.update", TargetType: "module", TargetID: strconv.FormatInt(id, 10), Before: before, After: after})
	})
	return m, err
}

// DeleteModule removes an empty module: one with no sub-modules and no
// videos (409 otherwise), audited as "module.delete".
func (s *Service) DeleteModule(ctx context.Context, actor audit.Actor, id int64) error {
	return s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		m, err := lockModule(ctx, tx, id)
		if err != nil {
			return err
		}
		var subs, videos int
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM modules WHERE pid = ?", id).Scan(&subs); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, "SELECT COUNT(*) FROM videos WHERE module_id = ? OR sub_module_id = ?", id, id).Scan(&videos); err != nil {
			return err
		}
		if subs > 0 || videos > 0 {
			return detailed(ErrInUse, fmt.Sprintf("栏目不是空的：还有 %d 个子栏目、%d 个视频，请先删除或移到其他栏目", subs, videos),
				fmt.Sprintf("module %d has %d sub-modules and %d videos", id, subs, videos))
		}
		if _, err := tx.Exec(ctx, "DELETE FROM modules WHERE id = ?", id); err != nil {
			return fkConflict(err, "栏目仍被其他内容使用，请先移走其中的内容")
		}
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "module.delete", TargetType: "module", TargetID: strconv.FormatInt(id, 10),
			Before: map[string]any{"pid": m.PID, "name": m.Name, "moduleType": m.Type, "sort": m.Sort}})
	})
}
