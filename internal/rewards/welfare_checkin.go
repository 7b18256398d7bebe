package rewards

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"

	"prima/internal/account"
	"prima/internal/platform/days"
	"prima/internal/platform/db"
	"prima/internal/wallet"
)

// CycleDays is the length of the check-in cycle.
const CycleDays = 7

// DayReward is what one check-in gives.
type DayReward struct {
	Points int64 `json:"points,omitempty"`
	Coins  int64 `json:"coins,omitempty"`
}

// CycleDay is one day of the check-in strip.
type CycleDay struct {
	Day    int       `json:"day"`
	Reward DayReward `json:"reward"`
	Done   bool      `json:"done"`
}

// CheckinState is GET /api/app/active/checkin.
type CheckinState struct {
	CheckedToday bool       `json:"checkedToday"`
	Streak       int        `json:"streak"`
	Days         []CycleDay `json:"days"`
	TodayReward  DayReward  `json:"todayReward"`
	Points       int64      `json:"points"`
}

// CycleAt places a streak on the cycle: pos is the cycle day of today's
// check-in (done or to do), done how many days of the strip are ticked.
// A streak of 7 checked today ends a cycle; tomorrow starts day 1 again.
func CycleAt(streak int, checkedToday bool) (pos, done int) {
	if checkedToday && streak > 0 {
		pos = (streak-1)%CycleDays + 1
		return pos, pos
	}
	done = streak % CycleDays
	return done + 1, done
}

// Cycle is the operator's 7 day rewards.
func (w *Welfare) Cycle(ctx context.Context, q db.Querier) ([CycleDays]DayReward, error) {
	var c [CycleDays]DayReward
	rows, err := q.Query(ctx, `SELECT day, points, coins FROM checkin_cycle ORDER BY day`)
	if err != nil {
		return c, err
	}
	defer rows.Close()
	for rows.Next() {
		var d int
		var r DayReward
		if err := rows.Scan(&d, &r.Points, &r.Coins); err != nil {
			return c, err
		}
		if d >= 1 && d <= CycleDays {
			c[d-1] = r
		}
	}
	return c, rows.Err()
}

// streakOn is uid's streak as of the check-in of day, 0 without one.
func streakOn(ctx context.Context, q db.Querier, uid int64, day string) (int, error) {
	var s int
	err := q.QueryRow(ctx, `SELECT streak FROM checkins WHERE user_id = ? AND day = ?`, uid, day).Scan(&s)
	if errors.Is(err, sql.ErrNoRows) {
		return 0, nil
	}
	return s, err
}

// Checkin is uid's check-in state at now.
func (w *Welfare) Checkin(ctx context.Context, uid int64) (CheckinState, error) {
	now := w.Now()
	st := CheckinState{Days: []CycleDay{}}
	cycle, err := w.Cycle(ctx, w.db)
	if err != nil {
		return st, err
	}
	today, err := streakOn(ctx, w.db, uid, days.Of(now))
	if err != nil {
		return st, err
	}
	st.CheckedToday = today > 0
	st.Streak = today
	if !st.CheckedToday {
		if st.Streak, err = streakOn(ctx, w.db, uid, days.Of(now.AddDate(0, 0, -1))); err != nil {
			return st, err
		}
	}
	pos, done := CycleAt(st.Streak, st.CheckedToday)
	for i := range CycleDays {
		st.Days = append(st.Days, CycleDay{Day: i + 1, Reward: cycle[i], Done: i < done})
	}
	st.TodayReward = cycle[pos-1]
	if st.Points, err = w.Points(ctx, uid); err != nil {
		return st, err
	}
	return st, nil
}

// CheckinResult is what a check-in gave.
type CheckinResult struct {
	Streak int       `json:"streak"`
	Day    int       `json:"day"`
	Reward DayReward `json:"reward"`
	// Tasks are the tasks this check-in completed, claimed and paid with
	// it (the 每日签到 task): no second tap for them.
	Tasks  []TaskPaid `json:"tasks"`
	Points int64      `json:"points"`
}

// CheckIn checks uid in for today's Shanghai day: once a day, the
// (user_id, day) key refusing a second or parallel tap with ErrCheckedIn
// before anything is granted. The streak continues from yesterday's
// check-in or restarts at 1, and the cycle day's reward is granted. The
// tasks the check-in completes are claimed and paid in the same
// transaction, so the check-in and its task are one tap and one commit.
func (w *Welfare) CheckIn(ctx context.Context, uid int64) (CheckinResult, error) {
	now := w.Now()
	day := days.Of(now)
	var res CheckinResult
	err := w.tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		prev, err := streakOn(ctx, tx, uid, days.Of(now.AddDate(0, 0, -1)))
		if err != nil {
			return err
		}
		cycle, err := w.Cycle(ctx, tx)
		if err != nil {
			return err
		}
		res = CheckinResult{Streak: prev + 1}
		res.Day, _ = CycleAt(res.Streak, true)
		res.Reward = cycle[res.Day-1]
		_, err = tx.Exec(ctx, `INSERT INTO checkins (user_id, day, streak, points, coins, created_at) VALUES (?, ?, ?, ?, ?, ?)`,
			uid, day, res.Streak, res.Reward.Points, res.Reward.Coins, now.Unix())
		if db.IsUnique(err) {
			return ErrCheckedIn
		}
		if err != nil {
			return err
		}
		key := "checkin:" + strconv.FormatInt(uid, 10) + ":" + day
		if res.Reward.Points > 0 {
			if _, err := w.AddPoints(ctx, tx, uid, res.Reward.Points, "checkin", key, day, now); err != nil {
				return err
			}
		}
		if res.Reward.Coins > 0 {
			memo := fmt.Sprintf("签到第%d天", res.Day)
			if err := w.Wallet.GrantReward(ctx, tx, uid, "checkin", key, memo, wallet.Reward{Coins: res.Reward.Coins}, now); err != nil {
				return err
			}
		}
		if res.Tasks, err = w.claimCheckinTasks(ctx, tx, uid, now); err != nil {
			return err
		}
		res.Points, err = account.Points(ctx, tx, uid)
		return err
	})
	return res, err
}

// SetCycle replaces the 7 day rewards (operator). Each day gives something,
// points within maxPoints, coins checked by the wallet's reward limits.
func (w *Welfare) SetCycle(ctx context.Context, tx *db.Tx, c [CycleDays]DayReward) error {
	for i, r := range c {
		if err := checkDayReward(r); err != nil {
			return fmt.Errorf("%w: day %d: %v", ErrBadConfig, i+1, err)
		}
	}
	for i, r := range c {
		if _, err := tx.Exec(ctx, `UPDATE checkin_cycle SET points = ?, coins = ? WHERE day = ?`, r.Points, r.Coins, i+1); err != nil {
			return err
		}
	}
	return nil
}

// maxPoints bounds one configured points reward, so a typo cannot mint a
// fortune.
const maxPoints = 1_000_000

func checkDayReward(r DayReward) error {
	switch {
	case r.Points < 0 || r.Coins < 0:
		return errors.New("negative reward")
	case r.Points == 0 && r.Coins == 0:
		return errors.New("empty reward")
	case r.Points > maxPoints:
		return errors.New("points over the limit")
	case r.Coins > 0:
		return wallet.CheckReward(wallet.Reward{Coins: r.Coins})
	}
	return nil
}
