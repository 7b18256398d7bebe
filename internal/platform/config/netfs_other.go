//go:build !linux

package config

// networkFS cannot tell outside Linux.
func networkFS(string) string { return "" }
