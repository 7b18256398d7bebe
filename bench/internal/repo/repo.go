// Package repo finds the Prima source tree the bench commands run in.
package repo

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
)

// Root is the nearest directory at or above the working directory whose
// go.mod declares module prima.
func Root() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		b, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil && bytes.HasPrefix(bytes.TrimSpace(b), []byte("module prima\n")) {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("not inside the prima source tree (no go.mod with module prima above the working directory)")
		}
		dir = parent
	}
}
