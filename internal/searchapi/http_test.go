package searchapi

import (
	"slices"
	"strings"
	"testing"
)

func TestCleanQuery(t *testing.T) {
	for in, want := range map[string]string{
		"":                        "",
		"   ":                     "",
		"\u3000北京\u3000":          "北京",
		"\x00":                    "",
		"北京\x00猫":                 "北京猫",
		"a\tb\r\nc":               "a b c",
		"  iPhone   教程 ":          "iPhone 教程",
		"\x1b[31m红":               "[31m红",
		"a\u0085b\u009fc\x7fd":    "a bcd", // NEL breaks a line
		"\xff\xfe北京":              "北京",
		"北\u202e京\u200b":          "北京",
		"👨\u200d👩":                "👨\u200d👩",
		`'; DROP TABLE users; --`: `'; DROP TABLE users; --`,
		`NEAR(a b) title:x *`:     `NEAR(a b) title:x *`,
	} {
		if got := cleanQuery(in); got != want {
			t.Errorf("cleanQuery(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestCheckPins(t *testing.T) {
	got, err := checkPins([]string{" 北京 ", "猫"})
	if err != nil || !slices.Equal(got, []string{"北京", "猫"}) {
		t.Fatalf("%v %v", got, err)
	}
	if got, err := checkPins([]string{}); err != nil || len(got) != 0 {
		t.Fatalf("empty: %v %v", got, err)
	}
	for name, in := range map[string][]string{
		"blank":    {"猫", "  "},
		"long":     {strings.Repeat("长", MaxPinRunes+1)},
		"repeat":   {"猫", " 猫"},
		"too many": strings.Split("1 2 3 4 5 6 7 8 9 10 11", " "),
	} {
		if _, err := checkPins(in); err == nil {
			t.Errorf("%s: accepted %q", name, in)
		}
	}
	if _, err := checkPins([]string{strings.Repeat("长", MaxPinRunes)}); err != nil {
		t.Errorf("exactly MaxPinRunes: %v", err)
	}
}

func TestClientKey(t *testing.T) {
	if clientKey(7, "1.2.3.4") != "u7" || clientKey(0, "1.2.3.4") != "ip1.2.3.4" {
		t.Fatal(clientKey(7, "1.2.3.4"), clientKey(0, "1.2.3.4"))
	}
}
