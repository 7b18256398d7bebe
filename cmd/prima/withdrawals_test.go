package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"prima/internal/account"
	"prima/internal/app"
	"prima/internal/platform/audit"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
	"prima/internal/wallet"
)

func TestWithdrawalsCommand(t *testing.T) {
	for _, e := range []db.Engine{db.SQLite, db.Postgres} {
		t.Run(string(e), func(t *testing.T) {
			ctx := context.Background()
			flags := []string{"-data-dir", t.TempDir(), "-database-url", dbtest.URL(t, e), "-log-level", "error"}
			cfg, err := config.Load("test", flags)
			if err != nil {
				t.Fatal(err)
			}
			a, err := app.New(ctx, cfg, slog.New(slog.NewTextHandler(io.Discard, nil)))
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if _, _, err := a.Account.CreateOperator(ctx, audit.Actor{UID: audit.CLI}, "root_ops", "secret12"); err != nil {
				t.Fatal(err)
			}
			l, err := a.Account.Register(ctx, account.RegisterInput{Account: "dave_1", Password: "secret56", IP: "10.0.0.1"})
			if err != nil {
				t.Fatal(err)
			}
			uid := l.User.ID
			err = a.DB.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				_, err := a.Wallet.Ledger.Post(ctx, tx, wallet.Transfer{Kind: "commission", Key: "commission:cli", UserID: uid,
					Legs: []wallet.Leg{{Account: wallet.System(wallet.SysIncomePaid), Amount: -100_000}, {Account: wallet.UserIncome(uid), Amount: 100_000}}}, time.Now())
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			two := int64(wallet.ActUSDT)
			acct, err := a.Wallet.AddPayout(ctx, uid, "10.0.0.1", wallet.PayoutInput{ActType: &two, Network: "TRC20", Address: "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t", PassWord: "secret56"})
			if err != nil {
				t.Fatal(err)
			}
			var orders []string
			for i, amount := range []int64{20_000, 30_000} {
				w, err := a.Wallet.Withdraw(ctx, uid, "10.0.0.1", fmt.Sprintf("cli-key-%d", i), wallet.WithdrawInput{Amount: &amount, AccountID: &acct.ID, PassWord: "secret56"})
				if err != nil {
					t.Fatal(err)
				}
				orders = append(orders, w.OrderNo)
			}
			run := func(args ...string) (string, error) {
				var out, errOut bytes.Buffer
				err := runWithdrawals(append(args, flags...), &out, &errOut)
				return out.String(), err
			}
			out, err := run("list", "-status", "pending")
			if err != nil || !strings.Contains(out, orders[0]) || !strings.Contains(out, "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t") || !strings.Contains(out, "2 of 2") {
				t.Fatalf("list: %q %v", out, err)
			}
			if out, err := run("approve", "-operator", "root_ops", "-order", orders[0]); err != nil || !strings.Contains(out, "is now paid") {
				t.Fatalf("approve: %q %v", out, err)
			}
			if out, err := run("approve", "-operator", "root_ops", "-order", orders[0]); err != nil || !strings.Contains(out, "already paid") {
				t.Fatalf("approve twice: %q %v", out, err)
			}
			if out, err := run("reject", "-operator", "root_ops", "-order", orders[1], "-reason", "地址有误"); err != nil || !strings.Contains(out, "is now rejected") {
				t.Fatalf("reject: %q %v", out, err)
			}
			for _, c := range []struct {
				args []string
				want string
			}{
				{[]string{"approve", "-operator", "dave_1", "-order", orders[1]}, "not an operator"},
				{[]string{"approve", "-operator", "nobody", "-order", orders[1]}, "not an operator"},
				{[]string{"approve", "-order", orders[1]}, "-operator and -order"},
				{[]string{"reject", "-operator", "root_ops", "-order", orders[1]}, "reason is required"},
				{[]string{"approve", "-operator", "root_ops", "-order", "W404"}, "no such withdrawal"},
				{[]string{"list", "-status", "gone"}, "status must be"},
				{[]string{"pay"}, "unknown subcommand"},
			} {
				if _, err := run(c.args...); err == nil || !strings.Contains(err.Error(), c.want) {
					t.Errorf("%v: %v, want %q", c.args, err, c.want)
				}
			}
			s, err := a.Wallet.Summary(ctx, uid)
			if err != nil || s.Income != 80_000 || s.IncomeFrozen != 0 {
				t.Fatalf("after: %+v %v", s, err)
			}
			var audits int
			if err := a.DB.QueryRow(ctx, `SELECT COUNT(*) FROM audit_log WHERE action LIKE 'withdraw.%' AND actor_uid > 0`).Scan(&audits); err != nil || audits != 2 {
				t.Fatalf("%d audit entries, %v", audits, err)
			}
			// Two-person approval (issue 21): above the threshold the shell
			// follows the same rule as the console.
			if _, err := a.Wallet.SetWithdrawSettings(ctx, audit.Actor{UID: audit.CLI}, 10_000); err != nil {
				t.Fatal(err)
			}
			if _, _, err := a.Account.CreateOperator(ctx, audit.Actor{UID: audit.CLI}, "second_ops", "secret12"); err != nil {
				t.Fatal(err)
			}
			big := int64(20_000)
			w, err := a.Wallet.Withdraw(ctx, uid, "10.0.0.1", "cli-key-big", wallet.WithdrawInput{Amount: &big, AccountID: &acct.ID, PassWord: "secret56"})
			if err != nil {
				t.Fatal(err)
			}
			if out, err := run("approve", "-operator", "root_ops", "-order", w.OrderNo); err != nil || !strings.Contains(out, "first approval recorded") {
				t.Fatalf("first approval: %q %v", out, err)
			}
			if _, err := run("approve", "-operator", "root_ops", "-order", w.OrderNo); err == nil || !strings.Contains(err.Error(), "different operator") {
				t.Fatalf("same operator again: %v", err)
			}
			if out, err := run("approve", "-operator", "second_ops", "-order", w.OrderNo); err != nil || !strings.Contains(out, "is now paid") {
				t.Fatalf("second approval: %q %v", out, err)
			}
			if err := wallet.Check(ctx, a.DB); err != nil {
				t.Fatal(err)
			}
		})
	}
}
