package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestHelp runs the test binary as prima itself (PRIMA_TEST_AS_MAIN) to see
// what a shell sees: the exit status and both streams.
func TestHelp(t *testing.T) {
	if os.Getenv("PRIMA_TEST_AS_MAIN") == "1" {
		os.Args = append([]string{"prima"}, strings.Fields(os.Getenv("PRIMA_TEST_ARGS"))...)
		main()
		os.Exit(0)
	}
	// Asking for help prints the usage to stdout and exits 0 with no
	// error; a command's flags come from its flag set, on stderr (Go's
	// convention). A missing or unknown command prints the usage to stderr
	// and exits 1.
	for _, c := range []struct {
		args     string
		code     int
		out, err string // each must hold this; "" for err: stderr holds no error
	}{
		{"-h", 0, "prima withdrawals list|approve|reject", ""},
		{"-help", 0, "prima reindex", ""},
		{"--help", 0, "prima wallet check", ""},
		{"help", 0, "prima admin create -account NAME", ""},
		{"help admin", 0, "prima admin create -account NAME", ""},
		{"admin -h", 0, "prima admin create -account NAME", ""},
		{"wallet --help", 0, "prima wallet check", ""},
		{"withdrawals help", 0, "prima withdrawals approve", ""},
		{"help serve", 0, "", ""},
		{"serve -h", 0, "", ""},
		{"reindex -h", 0, "", ""},
		{"", 1, "", "prima: a command is needed"},
		{"bogus", 1, "", `prima: unknown command "bogus"`},
		{"bogus -h", 1, "", `prima: unknown command "bogus"`},
	} {
		cmd := exec.Command(os.Args[0], "-test.run=^TestHelp$")
		cmd.Dir = t.TempDir() // a command that ran would leave ./data here
		cmd.Env = append(os.Environ(), "PRIMA_TEST_AS_MAIN=1", "PRIMA_TEST_ARGS="+c.args)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		code := 0
		if err := cmd.Run(); err != nil {
			var ee *exec.ExitError
			if !errors.As(err, &ee) {
				t.Fatal(err)
			}
			code = ee.ExitCode()
		}
		ok := code == c.code && strings.Contains(out.String(), c.out)
		if c.err == "" {
			ok = ok && !strings.HasPrefix(errb.String(), "prima:") && !strings.Contains(errb.String(), "\nprima:")
		} else {
			ok = ok && strings.Contains(errb.String(), c.err)
		}
		if c.code == 0 && c.args != "help serve" && c.args != "serve -h" && c.args != "reindex -h" {
			ok = ok && errb.Len() == 0
		}
		if !ok {
			t.Errorf("prima %s: exit %d (want %d)\nstdout: %s\nstderr: %s", c.args, code, c.code, out.String(), errb.String())
		}
	}
}
