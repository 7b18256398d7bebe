package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"prima/internal/app"
	"prima/internal/platform/audit"
	"prima/internal/platform/config"
	"prima/internal/platform/httpx"
	"prima/internal/wallet"
)

const withdrawalsUsage = `Usage:
  prima withdrawals list [-status pending|paid|rejected] [-uid N] [-page N]
                         withdrawals, newest first, with the full payout account
  prima withdrawals approve -operator NAME -order ORDERNO
                         mark a pending withdrawal paid (after paying it out)
  prima withdrawals reject -operator NAME -order ORDERNO -reason TEXT
                         return a pending withdrawal's amount to the user's income
Deciding a decided withdrawal changes nothing and prints its state. The
operator account NAME is recorded in the audit log and the ledger.
`

// runWithdrawals is `prima withdrawals SUBCOMMAND ...`: the operator's
// withdrawal calls (docs/api.md, *Operator calls*) from a shell.
func runWithdrawals(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, withdrawalsUsage)
		return nil
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, withdrawalsUsage)
		return errors.New("withdrawals: a subcommand is needed")
	}
	sub := args[0]
	var (
		status, operator, order, reason string
		uid, page                       int64
	)
	cfg, err := config.LoadCommand("prima withdrawals "+sub, args[1:], func(fs *flag.FlagSet) {
		switch sub {
		case "list":
			fs.StringVar(&status, "status", "", "only withdrawals in this state (pending, paid, rejected)")
			fs.Int64Var(&uid, "uid", 0, "only this user's withdrawals")
			fs.Int64Var(&page, "page", 1, "page number (50 a page)")
		case "approve", "reject":
			fs.StringVar(&operator, "operator", "", "the operator account deciding (recorded in the audit log)")
			fs.StringVar(&order, "order", "", "the withdrawal's order number")
			if sub == "reject" {
				fs.StringVar(&reason, "reason", "", "why it is rejected (shown to the user)")
			}
		}
	})
	if err != nil {
		return err
	}
	if sub != "list" && sub != "approve" && sub != "reject" {
		fmt.Fprint(stderr, withdrawalsUsage)
		return fmt.Errorf("withdrawals: unknown subcommand %q", sub)
	}
	ctx := context.Background()
	a, err := app.New(ctx, cfg, newLogger(cfg.LogLevel))
	if err != nil {
		return err
	}
	defer a.Close()
	if sub == "list" {
		if err := wallet.CheckStatus(status); err != nil {
			return fmt.Errorf("withdrawals list: %s", cliMsg(wallet.MapWithdrawErr(err)))
		}
		if uid < 0 || page < 1 || page > 10_000 {
			return errors.New("withdrawals list: -uid must be positive and -page 1..10000")
		}
		p, err := a.Wallet.AdminWithdrawals(ctx, uid, status, int(page), 50)
		if err != nil {
			return err
		}
		tw := tabwriter.NewWriter(stdout, 2, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "ORDER\tUID\tSTATUS\tAMOUNT\tFEE\tNET\tACCOUNT\tCREATED\tREASON")
		for _, w := range p.List {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", w.OrderNo, w.UserID, w.Status, cents(w.Amount), cents(w.Fee), cents(w.Net),
				describe(w.Account), w.CreatedAt.Format(time.RFC3339), w.Reason)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "%d of %d (page %d)\n", len(p.List), p.Total, p.PageNumber)
		return nil
	}
	if operator == "" || order == "" {
		fmt.Fprint(stderr, withdrawalsUsage)
		return fmt.Errorf("withdrawals %s: -operator and -order are needed", sub)
	}
	op, err := a.Account.UserByAccount(ctx, operator)
	if err != nil || op.Role != httpx.RoleOperator {
		return fmt.Errorf("withdrawals %s: %q is not an operator account", sub, operator)
	}
	w, changed, err := a.Wallet.Decide(ctx, audit.Actor{UID: op.ID}, order, sub == "approve", reason)
	if err != nil {
		return fmt.Errorf("withdrawals %s: %s", sub, cliMsg(wallet.MapWithdrawErr(err)))
	}
	switch {
	case w.AwaitingSecond && !changed:
		fmt.Fprintf(stdout, "%s: first approval recorded (operator %d); above the two-person threshold, a different operator's approval pays it\n", w.OrderNo, w.FirstApproverID)
	case changed && w.Status == wallet.StatusPaid:
		fmt.Fprintf(stdout, "%s is now paid (uid %d, net %s to %s, fee %s)\n", w.OrderNo, w.UserID, cents(w.Net), describe(w.Account), cents(w.Fee))
	case changed:
		fmt.Fprintf(stdout, "%s is now rejected (uid %d, %s returned to income)\n", w.OrderNo, w.UserID, cents(w.Amount))
	default:
		fmt.Fprintf(stdout, "%s was already %s: nothing changed\n", w.OrderNo, w.Status)
	}
	return nil
}

// cliMsg is an envelope error's message for a shell, else the error.
func cliMsg(err error) string {
	var he *httpx.Error
	if errors.As(err, &he) && he.Status < 500 {
		return he.Msg
	}
	return err.Error()
}

func cents(c int64) string { return fmt.Sprintf("%d.%02d", c/100, c%100) }

func describe(a wallet.PayoutAccount) string {
	if a.ActType == wallet.ActBank {
		return strings.Join([]string{a.BankName, a.Holder, a.Number}, " ")
	}
	return a.Network + " " + a.Address
}
