package app_test

import (
	"reflect"
	"testing"

	"prima/internal/app/apptest"
	"prima/internal/platform/db"
)

// app.New hands every service built with an Options struct each of its
// dependencies: a field added to one of them and forgotten here would
// leave a feature silently off (nil answers "none").
func TestEveryDependencyIsWired(t *testing.T) {
	s := apptest.New(t, db.SQLite)
	for name, opts := range map[string]any{
		"account.Options": s.App.Account.Options,
		"media.Options":   s.App.Uploads.Options,
	} {
		v := reflect.ValueOf(opts)
		for i := range v.NumField() {
			if v.Field(i).IsZero() {
				t.Errorf("%s.%s is not set in app.New", name, v.Type().Field(i).Name)
			}
		}
	}
}
