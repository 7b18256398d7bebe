package search

import (
	"testing"

	"github.com/longbridgeapp/opencc"
)

// The generated table agrees with the library it came from: OpenCC's own
// t2s conversion of each character alone (which also consults its phrase
// table, so a few characters differ on purpose there) and the known pairs.
func TestT2STable(t *testing.T) {
	for tr, s := range map[string]string{"國": "国", "學": "学", "開": "开", "電視": "电视", "貓": "猫", "台灣": "台湾", "鳥": "鸟", "東京": "东京"} {
		if got := Normalize(tr); got != s {
			t.Errorf("Normalize(%q) = %q, want %q", tr, got, s)
		}
	}
	cc, err := opencc.New("t2s")
	if err != nil {
		t.Fatal(err)
	}
	differ := 0
	for k, v := range t2sTable {
		got, err := cc.Convert(string(k))
		if err != nil {
			t.Fatal(err)
		}
		if got != string(v) {
			differ++
		}
	}
	if differ*100 > len(t2sTable) {
		t.Errorf("%d of %d table entries differ from OpenCC's conversion", differ, len(t2sTable))
	}
	if len(t2sTable) < 4000 {
		t.Errorf("table has only %d entries", len(t2sTable))
	}
}

func TestTraditionalFindsSimplified(t *testing.T) {
	if got, want := queryTokens("北京貓"), queryTokens("北京猫"); len(got) != len(want) || got[1] != want[1] {
		t.Errorf("%q vs %q", got, want)
	}
	if m := marks("我家的猫", queryTokens("貓")); len(m) != 1 || m[0] != [2]int{3, 4} {
		t.Errorf("marks across variants: %v", m)
	}
}
