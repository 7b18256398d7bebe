package account

import (
	"context"
	"errors"
	"strings"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

func TestCheckName(t *testing.T) {
	for _, tc := range []struct {
		name string
		ok   bool
	}{
		{"小明", true},
		{"Alice Wang", true},
		{"badminton fan", true},         // "admin" inside a word is fine
		{"时间管理大师", true},                // 管理 alone is not 管理员
		{strings.Repeat("字", 16), true}, // the longest
		{"", false},
		{"a", false},                     // too short
		{strings.Repeat("字", 17), false}, // too long
		{"游客ABC234", false},              // poses as a generated guest
		{"游客 小明", false},
		{"官方客服", false},
		{"客 服 小美", false}, // spaces do not hide a reserved word
		{"ＡＤＭＩＮ", false},  // fullwidth folds to admin
		{"Admin2", false},
		{"prima_official", false},
		{"a\u200bb", false}, // zero-width space
		{"ab\u202e", false}, // right-to-left override
		{"a\nb", false},
	} {
		err := CheckName(tc.name)
		if (err == nil) != tc.ok {
			t.Errorf("CheckName(%q) = %v, want ok %v", tc.name, err, tc.ok)
		}
	}
}

func TestCheckBio(t *testing.T) {
	if err := CheckBio(""); err != nil {
		t.Errorf("empty bio refused: %v", err)
	}
	if err := CheckBio(strings.Repeat("好", BioMax)); err != nil {
		t.Errorf("bio of %d refused: %v", BioMax, err)
	}
	if err := CheckBio(strings.Repeat("好", BioMax+1)); err == nil {
		t.Error("bio over the limit accepted")
	}
	if err := CheckBio("line\u2028break"); err == nil {
		t.Error("line separator accepted")
	}
}

// fakePortraits publishes asset 7 of user owner, refuses others.
type fakePortraits struct{ owner int64 }

func (f fakePortraits) PublishPortrait(_ context.Context, owner, id int64) (string, error) {
	switch {
	case id == 8:
		return "", ErrPortraitNotImage
	case id != 7 || owner != f.owner:
		return "", ErrPortraitNotFound
	}
	return "/media/covers/2026/03/p7.jpg", nil
}

func TestUpdateProfile(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s, _ := newTestService(t, d)
		g := guest(t, s, devID(1))
		uid := g.User.ID
		other := guest(t, s, devID(2)).User.ID
		s.Portraits = fakePortraits{owner: uid}
		str := func(v string) *string { return &v }
		num := func(v int64) *int64 { return &v }
		gender := func(v int) *int { return &v }

		// Saving the untouched generated guest name is allowed.
		if _, err := s.UpdateProfile(ctx, uid, ProfileInput{Name: str(g.User.Name), Bio: str("  hi  ")}); err != nil {
			t.Fatalf("unchanged guest name: %v", err)
		}
		u, err := s.UpdateProfile(ctx, uid, ProfileInput{Name: str("  小明同学 "), Portrait: num(7), Gender: gender(GenderFemale), Bio: str("喜欢拍照")})
		if err != nil {
			t.Fatal(err)
		}
		if u.Name != "小明同学" || u.Portrait != "/media/covers/2026/03/p7.jpg" || u.Gender != 2 || u.Bio != "喜欢拍照" {
			t.Fatalf("saved %+v", u)
		}
		got, _ := s.User(ctx, uid)
		if got.Name != "小明同学" || got.Gender != 2 || got.Bio != "喜欢拍照" || got.Portrait != u.Portrait {
			t.Fatalf("stored %+v", got)
		}
		if info := s.Info(got); info.Gender != 2 || info.Bio != "喜欢拍照" {
			t.Fatalf("info %+v", info)
		}
		// Refused edits change nothing, even the valid fields beside them.
		for _, bad := range []struct {
			in   ProfileInput
			want error
		}{
			{ProfileInput{}, nil},
			{ProfileInput{Name: str("官方客服"), Bio: str("x")}, nil},
			{ProfileInput{Name: str("   ")}, nil},
			{ProfileInput{Gender: gender(3), Bio: str("x")}, nil},
			{ProfileInput{Gender: gender(-1)}, nil},
			{ProfileInput{Bio: str(strings.Repeat("长", BioMax+1))}, nil},
			{ProfileInput{Portrait: num(0)}, nil},
			{ProfileInput{Portrait: num(9), Bio: str("x")}, ErrPortraitNotFound}, // not the user's
			{ProfileInput{Portrait: num(8), Bio: str("x")}, ErrPortraitNotImage},
		} {
			_, err := s.UpdateProfile(ctx, uid, bad.in)
			var ve *ValidationError
			if bad.want == nil && !errors.As(err, &ve) {
				t.Errorf("%+v: err %v, want a validation error", bad.in, err)
			}
			if bad.want != nil && !errors.Is(err, bad.want) {
				t.Errorf("%+v: err %v, want %v", bad.in, err, bad.want)
			}
		}
		// The other user's asset 7 is not theirs to use.
		if _, err := s.UpdateProfile(ctx, other, ProfileInput{Portrait: num(7)}); !errors.Is(err, ErrPortraitNotFound) {
			t.Errorf("another user's picture: %v", err)
		}
		after, _ := s.User(ctx, uid)
		if after.Name != got.Name || after.Bio != got.Bio || after.Gender != got.Gender || after.Portrait != got.Portrait {
			t.Fatalf("a refused edit changed %+v to %+v", got, after)
		}
		// The public profile carries gender and bio; isFollow needs Follows.
		p, err := s.ViewProfile(ctx, other, uid)
		if err != nil || p.Gender != 2 || p.Bio != "喜欢拍照" || p.IsFollow {
			t.Fatalf("profile %+v %v", p, err)
		}
		s.Follows = followsAll{}
		if p, _ = s.ViewProfile(ctx, other, uid); !p.IsFollow {
			t.Error("isFollow not filled")
		}
		if p, _ = s.ViewProfile(ctx, uid, uid); p.IsFollow {
			t.Error("a user follows themselves")
		}
	})
}

type followsAll struct{}

func (followsAll) IsFollowing(context.Context, int64, int64) (bool, error) { return true, nil }

func TestUpdateProfileRateLimited(t *testing.T) {
	d := dbtest.Open(t, db.SQLite)
	s, c := newTestService(t, d)
	uid := guest(t, s, devID(1)).User.ID
	bio := "x"
	for i := 0; i < profileRate.N; i++ {
		if _, err := s.UpdateProfile(context.Background(), uid, ProfileInput{Bio: &bio}); err != nil {
			t.Fatalf("edit %d: %v", i, err)
		}
	}
	if _, err := s.UpdateProfile(context.Background(), uid, ProfileInput{Bio: &bio}); !errors.Is(err, ErrRateLimited) {
		t.Fatalf("edit past the limit: %v", err)
	}
	c.add(profileRate.Per)
	if _, err := s.UpdateProfile(context.Background(), uid, ProfileInput{Bio: &bio}); err != nil {
		t.Fatalf("after the window: %v", err)
	}
}
