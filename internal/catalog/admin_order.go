package catalog

import (
	"context"
	"fmt"
	"slices"
	"strconv"

	"prima/internal/platform/audit"
	"prima/internal/platform/db"
)

// MaxSiblings bounds the ids of one reorder: far more modules than any
// app screen shows.
const MaxSiblings = 500

// OrderModules sets the order of the children of pid (0: the top-level
// modules) to ids, which must name every one of them exactly once: their
// sort becomes their position (0, 1, 2, ...). Audited as one
// "module.order" row on the parent with the id order before and after;
// the same order as now changes nothing and records nothing. It answers
// the siblings in their new order, with their counts.
func (s *Service) OrderModules(ctx context.Context, actor audit.Actor, pid int64, ids []int64) ([]AdminModule, error) {
	if len(ids) == 0 || len(ids) > MaxSiblings {
		return nil, invalid(fmt.Sprintf("请提交 1 到 %d 个栏目的新顺序", MaxSiblings), "ids must hold 1..500 module ids")
	}
	seen := make(map[int64]bool, len(ids))
	for _, id := range ids {
		if seen[id] {
			return nil, invalid(fmt.Sprintf("栏目 %d 重复出现", id), "ids repeats "+strconv.FormatInt(id, 10))
		}
		seen[id] = true
	}
	err := s.db.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		if pid != 0 {
			parent, err := lockModule(ctx, tx, pid)
			if err != nil {
				return err
			}
			if parent.PID != 0 {
				return invalid("子栏目下没有子栏目可排序", "pid "+strconv.FormatInt(pid, 10)+" is a sub-module")
			}
		}
		kids, err := db.All(ctx, tx, scanAdminModule, "SELECT "+adminModuleCols+" FROM modules WHERE pid = ? ORDER BY sort, id"+tx.ForUpdate(), pid)
		if err != nil {
			return err
		}
		before := make([]int64, len(kids))
		for i, k := range kids {
			before[i] = k.ID
			if !seen[k.ID] {
				return invalid(fmt.Sprintf("缺少栏目 %d：请提交该级的全部栏目", k.ID), "ids misses child "+strconv.FormatInt(k.ID, 10))
			}
		}
		if len(kids) != len(ids) {
			for _, id := range ids {
				if !slices.Contains(before, id) {
					return invalid(fmt.Sprintf("栏目 %d 不在这一级", id), "id "+strconv.FormatInt(id, 10)+" is not a child of pid "+strconv.FormatInt(pid, 10))
				}
			}
		}
		if slices.Equal(before, ids) {
			return nil
		}
		sortOf := make(map[int64]int, len(kids))
		for _, k := range kids {
			sortOf[k.ID] = k.Sort
		}
		for i, id := range ids {
			if sortOf[id] == i {
				continue
			}
			if _, err := tx.Exec(ctx, "UPDATE modules SET sort = ? WHERE id = ?", i, id); err != nil {
				return err
			}
		}
		tx.AfterCommit(s.Invalidate)
		return audit.Record(ctx, tx, audit.Entry{Actor: actor, Action: "module.order", TargetType: "module", TargetID: strconv.FormatInt(pid, 10),
			Before: map[string]any{"ids": before}, After: map[string]any{"ids": ids}})
	})
	if err != nil {
		return nil, err
	}
	all, err := s.AdminModules(ctx)
	if err != nil {
		return nil, err
	}
	if pid == 0 {
		for i := range all {
			all[i].SubModules = nil
		}
		return all, nil
	}
	for _, m := range all {
		if m.ID == pid {
			return m.SubModules, nil
		}
	}
	return []AdminModule{}, nil
}
