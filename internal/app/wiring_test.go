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
	// The blocked-words rule reaches every place users write text.
	for name, set := range map[string]bool{
		"community.Service.Words": s.App.Community.Words != nil,
		"messaging.Service.Words": s.App.Messages.Words != nil,
		"account.Options.Words":   s.App.Account.Words != nil,
	} {
		if !set {
			t.Errorf("%s is not set in app.New", name)
		}
	}
}
