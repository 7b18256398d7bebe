package rewards

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"prima/internal/account"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/wallet"
)

// Task kinds: a daily task counts and is claimed per Shanghai day, a once
// task once ever.
const (
	KindDaily = "daily"
	KindOnce  = "once"
)

// metric is a progress counter an operator may attach to a task. Progress
// is counted at request time from the rows of the domain that owns them,
// so it is never a second copy that can drift: rewards names the metric,
// the owner counts (Counter, wired in internal/app).
type metric struct {
	daily bool // meaningful per day (counts rows created since the day began)
}

// Metrics are the progress counters an operator may attach to a task.
var Metrics = map[string]metric{
	"watch":   {true}, // distinct videos played today (catalog)
	"like":    {true}, // videos liked (catalog)
	"checkin": {true}, // check-ins (rewards' own)
	"follow":  {true}, // users followed (community)
	"topup":   {true}, // paid orders (wallet)
	// Profile facts (account): 1 when true, whatever the day.
	"bind_phone": {false},
	"portrait":   {false},
}

// Counter counts user uid's rows of one metric created at or after since
// (unix seconds; 0 for all time), on q: inside a claim's transaction it is
// the claim's handle, so the count and the reward it pays stand together.
// The domain that owns the rows implements it.
type Counter func(ctx context.Context, q db.Querier, uid, since int64) (int64, error)

// countCheckins is the checkin metric, over rewards' own table.
func countCheckins(ctx context.Context, q db.Querier, uid, since int64) (int64, error) {
	var n int64
	err := q.QueryRow(ctx, `SELECT COUNT(*) FROM checkins WHERE user_id = ? AND created_at >= ?`, uid, since).Scan(&n)
	return n, err
}

// Task is one task as the caller sees it.
type Task struct {
	ID       int64     `json:"id"`
	Title    string    `json:"title"`
	Desc     string    `json:"desc"`
	Kind     string    `json:"kind"`
	Metric   string    `json:"metric"`
	Target   int64     `json:"target"`
	Progress int64     `json:"progress"`
	Reward   DayReward `json:"reward"`
	State    string    `json:"state"` // todo | claimable | claimed
	Link     string    `json:"link"`
}

// TaskDef is an operator's task row.
type TaskDef struct {
	ID     int64     `json:"id"`
	Title  string    `json:"title"`
	Desc   string    `json:"desc"`
	Kind   string    `json:"kind"`
	Metric string    `json:"metric"`
	Target int64     `json:"target"`
	Reward DayReward `json:"reward"`
	Link   string    `json:"link"`
	Active bool      `json:"active"`
	Sort   int64     `json:"sort"`
}

// TaskState says where a task stands.
func TaskState(progress, target int64, claimed bool) string {
	switch {
	case claimed:
		return "claimed"
	case progress >= target:
		return "claimable"
	}
	return "todo"
}

// period is the claim period of a task kind at now.
func period(kind string, now time.Time) string {
	if kind == KindDaily {
		return days.Of(now)
	}
	return "once"
}

func scanDef(s db.Scanner) (TaskDef, error) {
	var d TaskDef
	var active int
	err := s.Scan(&d.ID, &d.Title, &d.Desc, &d.Kind, &d.Metric, &d.Target, &d.Reward.Points, &d.Reward.Coins, &d.Link, &active, &d.Sort)
	d.Active = active == 1
	return d, err
}

const defCols = `id, title, description, kind, metric, target, points, coins, link, active, sort`

// progress counts uid's progress on d at now.
func (w *Welfare) progress(ctx context.Context, q db.Querier, uid int64, d TaskDef, now time.Time) (int64, error) {
	m, ok := Metrics[d.Metric]
	if !ok {
		return 0, nil
	}
	count := w.Counters[d.Metric]
	if count == nil {
		return 0, fmt.Errorf("rewards: no counter wired for metric %q", d.Metric)
	}
	var since int64
	if d.Kind == KindDaily && m.daily {
		since = days.Start(now).Unix()
	}
	return count(ctx, q, uid, since)
}

// Tasks lists the active tasks with uid's progress (uid 0: a visitor, no
// progress).
func (w *Welfare) Tasks(ctx context.Context, uid int64) ([]Task, error) {
	now := w.Now()
	defs, err := db.All(ctx, w.db, scanDef, `SELECT `+defCols+` FROM welfare_tasks WHERE active = 1 ORDER BY sort, id`)
	if err != nil {
		return nil, err
	}
	out := make([]Task, 0, len(defs))
	for _, d := range defs {
		t := Task{ID: d.ID, Title: d.Title, Desc: d.Desc, Kind: d.Kind, Metric: d.Metric, Target: d.Target, Reward: d.Reward, Link: d.Link}
		claimed := false
		if uid > 0 {
			if t.Progress, err = w.progress(ctx, w.db, uid, d, now); err != nil {
				return nil, err
			}
			var one int
			err := w.db.QueryRow(ctx, `SELECT 1 FROM task_claims WHERE user_id = ? AND task_id = ? AND period = ?`, uid, d.ID, period(d.Kind, now)).Scan(&one)
			if err != nil && !errors.Is(err, sql.ErrNoRows) {
				return nil, err
			}
			claimed = err == nil
		}
		t.State = TaskState(t.Progress, t.Target, claimed)
		out = append(out, t)
	}
	return out, nil
}

// ClaimResult is what claiming a task gave.
type ClaimResult struct {
	TaskID int64     `json:"taskId"`
	Reward DayReward `json:"reward"`
	Points int64     `json:"points"`
}

// TaskPaid is a task a check-in completed and paid in the same tap.
type TaskPaid struct {
	TaskID int64     `json:"taskId"`
	Title  string    `json:"title"`
	Reward DayReward `json:"reward"`
}

// Claim gives uid the reward of task id when its progress reaches the
// target, once per period: the (user, task, period) key refuses a second
// or parallel claim with ErrTaskClaimed.
func (w *Welfare) Claim(ctx context.Context, uid, id int64) (ClaimResult, error) {
	now := w.Now()
	res := ClaimResult{TaskID: id}
	err := w.tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		d, err := scanDef(tx.QueryRow(ctx, `SELECT `+defCols+` FROM welfare_tasks WHERE id = ? AND active = 1`, id))
		if errors.Is(err, sql.ErrNoRows) {
			return ErrNoTask
		}
		if err != nil {
			return err
		}
		p, err := w.progress(ctx, tx, uid, d, now)
		if err != nil {
			return err
		}
		per := period(d.Kind, now)
		_, err = tx.Exec(ctx, `INSERT INTO task_claims (user_id, task_id, period, created_at) VALUES (?, ?, ?, ?)`, uid, id, per, now.Unix())
		if db.IsUnique(err) {
			return ErrTaskClaimed
		}
		if err != nil {
			return err
		}
		if p < d.Target {
			return ErrTaskNotDone
		}
		res.Reward = d.Reward
		if err := w.payTask(ctx, tx, uid, d, per, now); err != nil {
			return err
		}
		res.Points, err = account.Points(ctx, tx, uid)
		return err
	})
	return res, err
}

// payTask grants task d's reward for period per inside tx, once: its
// points and coins keys name the task, the user and the period, so a
// second payment of the same claim fails the transaction.
func (w *Welfare) payTask(ctx context.Context, tx *db.Tx, uid int64, d TaskDef, per string, now time.Time) error {
	key := fmt.Sprintf("task:%d:%d:%s", d.ID, uid, per)
	if d.Reward.Points > 0 {
		if _, err := w.AddPoints(ctx, tx, uid, d.Reward.Points, "task", key, strconv.FormatInt(d.ID, 10), now); err != nil {
			return err
		}
	}
	if d.Reward.Coins > 0 {
		if err := w.Wallet.GrantReward(ctx, tx, uid, "task", key, "任务奖励："+d.Title, wallet.Reward{Coins: d.Reward.Coins}, now); err != nil {
			return err
		}
	}
	return nil
}

// claimCheckinTasks claims, inside the check-in's transaction, every
// active task the check-in completes (metric checkin, progress at its
// target, not claimed this period): one tap checks in and collects the
// 每日签到 task instead of asking for a second tap. A claim made already
// (a manual one that won a race) is skipped, not paid twice: the claim row
// is inserted with ON CONFLICT DO NOTHING and only a new row pays.
func (w *Welfare) claimCheckinTasks(ctx context.Context, tx *db.Tx, uid int64, now time.Time) ([]TaskPaid, error) {
	defs, err := db.All(ctx, tx, scanDef, `SELECT `+defCols+` FROM welfare_tasks WHERE active = 1 AND metric = 'checkin' ORDER BY sort, id`)
	if err != nil {
		return nil, err
	}
	out := []TaskPaid{}
	for _, d := range defs {
		p, err := w.progress(ctx, tx, uid, d, now)
		if err != nil {
			return nil, err
		}
		if p < d.Target {
			continue
		}
		per := period(d.Kind, now)
		var claimed int64
		err = tx.QueryRow(ctx, `INSERT INTO task_claims (user_id, task_id, period, created_at) VALUES (?, ?, ?, ?)
			ON CONFLICT DO NOTHING RETURNING task_id`, uid, d.ID, per, now.Unix()).Scan(&claimed)
		if errors.Is(err, sql.ErrNoRows) {
			continue
		}
		if err != nil {
			return nil, err
		}
		if err := w.payTask(ctx, tx, uid, d, per, now); err != nil {
			return nil, err
		}
		out = append(out, TaskPaid{TaskID: d.ID, Title: d.Title, Reward: d.Reward})
	}
	return out, nil
}

// AdminTasks lists every task, inactive ones too.
func (w *Welfare) AdminTasks(ctx context.Context) ([]TaskDef, error) {
	return db.All(ctx, w.db, scanDef, `SELECT `+defCols+` FROM welfare_tasks ORDER BY sort, id`)
}

// checkTask validates an operator's task.
func checkTask(d *TaskDef) error {
	d.Title = strings.TrimSpace(d.Title)
	switch {
	case d.Title == "" || utf8.RuneCountInString(d.Title) > 40:
		return fmt.Errorf("%w: title must be 1-40 characters", ErrBadConfig)
	case utf8.RuneCountInString(d.Desc) > 200:
		return fmt.Errorf("%w: desc takes at most 200 characters", ErrBadConfig)
	case d.Kind != KindDaily && d.Kind != KindOnce:
		return fmt.Errorf("%w: kind must be daily or once", ErrBadConfig)
	case d.Target < 1 || d.Target > 1000:
		return fmt.Errorf("%w: target must be 1-1000", ErrBadConfig)
	case d.Link != "" && (!strings.HasPrefix(d.Link, "/") || strings.HasPrefix(d.Link, "//") || len(d.Link) > 200):
		return fmt.Errorf("%w: link must be an in-app path", ErrBadConfig)
	}
	if _, ok := Metrics[d.Metric]; !ok {
		return fmt.Errorf("%w: unknown metric %q", ErrBadConfig, d.Metric)
	}
	if err := checkDayReward(d.Reward); err != nil {
		return fmt.Errorf("%w: %v", ErrBadConfig, err)
	}
	return nil
}

// SaveTask creates (ID 0) or updates a task inside tx; returns its id.
func (w *Welfare) SaveTask(ctx context.Context, tx *db.Tx, d TaskDef, now time.Time) (int64, error) {
	if err := checkTask(&d); err != nil {
		return 0, err
	}
	active := db.BoolInt(d.Active)
	if d.ID == 0 {
		var id int64
		err := tx.QueryRow(ctx, `INSERT INTO welfare_tasks (title, description, kind, metric, target, points, coins, link, active, sort, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
			d.Title, d.Desc, d.Kind, d.Metric, d.Target, d.Reward.Points, d.Reward.Coins, d.Link, active, d.Sort, now.Unix(), now.Unix()).Scan(&id)
		return id, err
	}
	r, err := tx.Exec(ctx, `UPDATE welfare_tasks SET title = ?, description = ?, kind = ?, metric = ?, target = ?, points = ?, coins = ?, link = ?, active = ?, sort = ?, updated_at = ?
		WHERE id = ?`, d.Title, d.Desc, d.Kind, d.Metric, d.Target, d.Reward.Points, d.Reward.Coins, d.Link, active, d.Sort, now.Unix(), d.ID)
	if err != nil {
		return 0, err
	}
	if n, _ := r.RowsAffected(); n == 0 {
		return 0, ErrNoTask
	}
	return d.ID, nil
}
