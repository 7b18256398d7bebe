package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"golang.org/x/term"

	"prima/internal/account"
	"prima/internal/app"
	"prima/internal/platform/audit"
	"prima/internal/platform/config"
)

const adminUsage = `Usage:
  prima admin create -account NAME   make NAME an operator: create the account
                                     (password from a prompt, or from stdin
                                     when it is not a terminal) or promote the
                                     existing account (its password is kept)
`

// runAdmin is `prima admin SUBCOMMAND ...`: operator accounts from the
// command line, for the first operator of an install and for recovery.
// Every change is audited with actor 0 (the command line).
func runAdmin(args []string, stdin *os.File, stdout, stderr io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, adminUsage)
		return nil
	}
	if len(args) == 0 || args[0] != "create" {
		fmt.Fprint(stderr, adminUsage)
		if len(args) == 0 {
			return errors.New("admin: a subcommand is needed")
		}
		return fmt.Errorf("admin: unknown subcommand %q", args[0])
	}
	var name string
	cfg, err := config.LoadCommand("prima admin create", args[1:], func(fs *flag.FlagSet) {
		fs.StringVar(&name, "account", "", "account to create or promote (4-20 letters, digits or underscores, starting with a letter)")
	})
	if err != nil {
		return err
	}
	if name == "" {
		fmt.Fprint(stderr, adminUsage)
		return errors.New("admin create: -account is needed")
	}
	log := newLogger(cfg.LogLevel)
	ctx := context.Background()
	a, err := app.New(ctx, cfg, log)
	if err != nil {
		return err
	}
	defer a.Close()

	password := ""
	if _, err := a.Account.UserByAccount(ctx, name); err != nil {
		// A new account: ask for its password. Promotion needs none; the
		// race where the account is registered meanwhile also ends in a
		// promotion, which is what the caller asked for.
		if password, err = readPassword(stdin, stderr); err != nil {
			return err
		}
	}
	u, created, err := a.Account.CreateOperator(ctx, audit.Actor{UID: audit.CLI}, name, password)
	var ve *account.ValidationError
	if errors.As(err, &ve) {
		return fmt.Errorf("admin create: %s", ve.Msg)
	}
	if err != nil {
		return fmt.Errorf("admin create: %w", err)
	}
	if created {
		fmt.Fprintf(stdout, "created operator %s (uid %d)\n", u.Account, u.ID)
	} else {
		fmt.Fprintf(stdout, "%s (uid %d) is an operator\n", u.Account, u.ID)
	}
	return nil
}

// readPassword prompts on a terminal without echo, asking twice so a typo
// cannot lock the operator out; from a pipe it reads the first line.
func readPassword(in *os.File, prompt io.Writer) (string, error) {
	fd := int(in.Fd())
	if !term.IsTerminal(fd) {
		line, err := bufio.NewReader(io.LimitReader(in, 1024)).ReadString('\n')
		if err != nil && !(errors.Is(err, io.EOF) && line != "") {
			return "", errors.New("admin create: no password on stdin")
		}
		return strings.TrimRight(line, "\r\n"), nil
	}
	fmt.Fprint(prompt, "Password: ")
	first, err := term.ReadPassword(fd)
	fmt.Fprintln(prompt)
	if err != nil {
		return "", err
	}
	fmt.Fprint(prompt, "Again: ")
	second, err := term.ReadPassword(fd)
	fmt.Fprintln(prompt)
	if err != nil {
		return "", err
	}
	if string(first) != string(second) {
		return "", errors.New("admin create: the passwords differ")
	}
	return string(first), nil
}
