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
	"time"

	"golang.org/x/term"

	"prima/internal/account"
	"prima/internal/app"
	"prima/internal/operator"
	"prima/internal/platform/audit"
	"prima/internal/platform/config"
	"prima/internal/platform/db"
	"prima/internal/platform/httpx"
)

const adminUsage = `Usage:
  prima admin create -account NAME [-role ROLE]
                     make NAME an operator of the console: create the account
                     (password from a prompt, or from stdin when it is not a
                     terminal) or promote the existing account (its password
                     is kept). ROLE is owner (the default for a new operator),
                     content, moderator, finance or support; for an existing
                     operator -role changes the role. The operator enrols TOTP
                     at the first sign-in at /admin/login.
  prima admin reset-totp -account NAME
                     forget NAME's authenticator and recovery codes and end
                     their console sessions (a lost phone): the next sign-in
                     enrols again
  prima admin key -account NAME [-ttl 24h]
                     issue an API key for scripts with NAME's role (as it is at
                     each use), valid for -ttl (1m to 2160h); the key is
                     printed once on stdout (details on stderr) and sent as
                     Authorization: Bearer pk_...; every use is audited, and
                     it is listed and revoked in the console
`

// runAdmin is `prima admin SUBCOMMAND ...`: operators from the command
// line, for the first operator of an install and for recovery. Every change
// is audited with actor 0 (the command line).
func runAdmin(args []string, stdin *os.File, stdout, stderr io.Writer) error {
	if len(args) > 0 && isHelp(args[0]) {
		fmt.Fprint(stdout, adminUsage)
		return nil
	}
	if len(args) == 0 {
		fmt.Fprint(stderr, adminUsage)
		return errors.New("admin: a subcommand is needed")
	}
	switch args[0] {
	case "create":
		return adminCreate(args[1:], stdin, stdout, stderr)
	case "reset-totp":
		return adminResetTOTP(args[1:], stdout, stderr)
	case "key":
		return adminKey(args[1:], stdout, stderr)
	}
	fmt.Fprint(stderr, adminUsage)
	return fmt.Errorf("admin: unknown subcommand %q", args[0])
}

// adminApp loads the configuration with the subcommand's flags and opens
// the app; name is the -account flag, which every subcommand needs.
func adminApp(sub string, args []string, stderr io.Writer, extra func(*flag.FlagSet)) (*app.App, string, error) {
	var name string
	cfg, err := config.LoadCommand("prima admin "+sub, args, func(fs *flag.FlagSet) {
		fs.StringVar(&name, "account", "", "the operator's account (4-20 letters, digits or underscores, starting with a letter)")
		if extra != nil {
			extra(fs)
		}
	})
	if err != nil {
		return nil, "", err
	}
	if name == "" {
		fmt.Fprint(stderr, adminUsage)
		return nil, "", fmt.Errorf("admin %s: -account is needed", sub)
	}
	a, err := app.New(context.Background(), cfg, newLogger(cfg.LogLevel))
	return a, name, err
}

func adminCreate(args []string, stdin *os.File, stdout, stderr io.Writer) error {
	var roleFlag string
	a, name, err := adminApp("create", args, stderr, func(fs *flag.FlagSet) {
		fs.StringVar(&roleFlag, "role", "", "console role: owner, content, moderator, finance or support (a new operator: owner)")
	})
	if err != nil {
		return err
	}
	defer a.Close()
	ctx := context.Background()
	var role httpx.Role
	if roleFlag != "" {
		if role, err = operator.ParseRole(roleFlag); err != nil {
			return fmt.Errorf("admin create: -role %q is not owner, content, moderator, finance or support", roleFlag)
		}
	}
	password := ""
	if _, err := a.Account.UserByAccount(ctx, name); err != nil {
		// A new account: ask for its password. Promotion needs none; the
		// race where the account is registered meanwhile also ends in a
		// promotion, which is what the caller asked for.
		if password, err = readPassword(stdin, stderr); err != nil {
			return err
		}
	}
	o, created, err := a.Operators.Ensure(ctx, audit.Actor{UID: audit.CLI}, name, role, password)
	if err != nil {
		return fmt.Errorf("admin create: %s", cliError(err))
	}
	if created {
		fmt.Fprintf(stdout, "created operator %s (uid %d, role %s)\n", o.Account, o.UID, o.Role)
	} else {
		fmt.Fprintf(stdout, "%s (uid %d) is an operator (role %s)\n", o.Account, o.UID, o.Role)
	}
	return nil
}

func adminResetTOTP(args []string, stdout, stderr io.Writer) error {
	a, name, err := adminApp("reset-totp", args, stderr, nil)
	if err != nil {
		return err
	}
	defer a.Close()
	ctx := context.Background()
	u, err := a.Account.UserByAccount(ctx, name)
	if err != nil {
		return fmt.Errorf("admin reset-totp: %q is not an operator account", name)
	}
	if err := a.Operators.ResetTOTP(ctx, audit.Actor{UID: audit.CLI}, u.ID); err != nil {
		return fmt.Errorf("admin reset-totp: %s", cliError(err))
	}
	fmt.Fprintf(stdout, "%s (uid %d): TOTP and recovery codes forgotten, console sessions ended; the next sign-in enrols again\n", u.Account, u.ID)
	return nil
}

func adminKey(args []string, stdout, stderr io.Writer) error {
	var ttl time.Duration
	a, name, err := adminApp("key", args, stderr, func(fs *flag.FlagSet) {
		fs.DurationVar(&ttl, "ttl", 24*time.Hour, "how long the key works, e.g. 1h, 24h, 720h (1m to 2160h)")
	})
	if err != nil {
		return err
	}
	defer a.Close()
	ctx := context.Background()
	u, err := a.Account.UserByAccount(ctx, name)
	if err != nil {
		return fmt.Errorf("admin key: %q is not an operator account", name)
	}
	key, k, err := a.Operators.IssueKey(ctx, audit.Actor{UID: audit.CLI}, u.ID, ttl)
	switch {
	case errors.Is(err, operator.ErrKeyTTL):
		return fmt.Errorf("admin key: -ttl %v is not between %v and %v", ttl, operator.MinKeyTTL, operator.MaxKeyTTL)
	case err != nil:
		return fmt.Errorf("admin key: %s", cliError(err))
	}
	fmt.Fprintln(stdout, key)
	fmt.Fprintf(stderr, "API key %d (%s...) for %s, role %s, expires %s; it is shown only now\n", k.ID, k.Prefix, k.Account, k.Role, k.ExpiresAt.Format(time.RFC3339))
	return nil
}

// cliError is err in words for a shell: a validation's message, a known
// refusal's sentence, else the error.
func cliError(err error) string {
	var ve *account.ValidationError
	switch {
	case errors.As(err, &ve):
		return ve.Msg
	case errors.Is(err, operator.ErrNoOperator), errors.Is(err, db.ErrNotFound):
		return "not an operator account"
	case errors.Is(err, operator.ErrLastOwner):
		return "the last owner keeps the owner role"
	case errors.Is(err, account.ErrGuestOperator):
		return "a guest cannot be an operator"
	case errors.Is(err, account.ErrPasswordNeeded):
		return "a new operator account needs a password"
	}
	return err.Error()
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
