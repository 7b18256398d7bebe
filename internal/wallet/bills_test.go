package wallet

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"prima/internal/platform/db"
	"prima/internal/platform/db/dbtest"
)

// systemOnly are movement kinds that never touch a user account (the
// payout of a held withdrawal moves system money only; earnings pending,
// reversed or owed back live in earnings' system accounts), so no bill
// shows them.
var systemOnly = []string{"withdraw_paid", "commission_pending", "commission_reversed", "commission_debt", "creator_pending"}

// postedKinds finds, in the non-test Go source under internal/, every
// movement kind the code can post: Transfer literals' Kind, assignments to
// a transfer's .Kind, the buy items' kind, and GrantReward's kind argument.
func postedKinds(t *testing.T) map[string]string {
	t.Helper()
	found := map[string]string{}
	lit := func(e ast.Expr, where string) {
		if b, ok := e.(*ast.BasicLit); ok && b.Kind == token.STRING {
			if s, err := strconv.Unquote(b.Value); err == nil {
				found[s] = where
			}
		}
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return err
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CompositeLit:
				typ := ""
				switch tt := n.Type.(type) {
				case *ast.Ident:
					typ = tt.Name
				case *ast.SelectorExpr:
					typ = tt.Sel.Name
				}
				if typ != "Transfer" && typ != "item" {
					return true
				}
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && (k.Name == "Kind" || k.Name == "kind") {
							lit(kv.Value, fset.Position(kv.Pos()).String())
						}
					}
				}
			case *ast.AssignStmt:
				for i, l := range n.Lhs {
					if sel, ok := l.(*ast.SelectorExpr); ok && sel.Sel.Name == "Kind" && i < len(n.Rhs) {
						if x, ok := sel.X.(*ast.Ident); ok && x.Name == "t" {
							lit(n.Rhs[i], fset.Position(n.Pos()).String())
						}
					}
				}
			case *ast.CallExpr:
				if sel, ok := n.Fun.(*ast.SelectorExpr); ok && sel.Sel.Name == "GrantReward" && len(n.Args) > 3 {
					lit(n.Args[3], fset.Position(n.Pos()).String())
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return found
}

func TestEveryPostedKindHasABillTitleAndChip(t *testing.T) {
	found := postedKinds(t)
	// The scan must see the kinds it is known to post, or it proves nothing.
	for _, k := range []string{"topup", "buy_video", "buy_post", "withdraw_return", "task", "prize", "checkin", "invite", "code"} {
		if _, ok := found[k]; !ok {
			t.Fatalf("the scan did not find kind %q; found %v", k, found)
		}
	}
	for k, where := range found {
		if slices.Contains(systemOnly, k) {
			continue
		}
		if billTitles[k] == "" {
			t.Errorf("%s: kind %q has no bill title", where, k)
		}
		if !slices.Contains(coinBillTypes, k) && !slices.Contains(incomeBillTypes, k) {
			t.Errorf("%s: kind %q has no filter chip on either bill", where, k)
		}
	}
	for _, k := range billKinds {
		if k.title == "" || strings.ContainsAny(k.title, "abcdefghijklmnopqrstuvwxyz_") {
			t.Errorf("kind %q: title %q is not a Chinese title", k.kind, k.title)
		}
	}
}

// The app's chips are its own lists of the same types: they must not drift.
func TestWebBillTypesMatch(t *testing.T) {
	src, err := os.ReadFile("../../web/src/features/withdraw/types.ts")
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string][]string{"COIN_BILL_TYPES": coinBillTypes, "INCOME_TYPES": incomeBillTypes} {
		m := regexp.MustCompile(`export const ` + name + ` = \[([^\]]*)\]`).FindSubmatch(src)
		if m == nil {
			t.Fatalf("%s not found in types.ts", name)
		}
		var got []string
		for _, q := range regexp.MustCompile(`'([a-z_]+)'`).FindAllSubmatch(m[1], -1) {
			got = append(got, string(q[1]))
		}
		if !slices.Equal(got, want) {
			t.Errorf("web %s = %v, server %v", name, got, want)
		}
	}
}

func TestPostRefusesAKindTheBillDoesNotKnow(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		l := NewLedger()
		uid := newUser(t, d)
		for name, tr := range map[string]Transfer{
			"unknown kind":         {Kind: "lottery", Key: "k1", Legs: []Leg{{System(SysCoinsPromo), -5}, {UserCoins(uid), 5}}},
			"income kind on coins": {Kind: "commission", Key: "k2", Legs: []Leg{{System(SysCoinsPromo), -5}, {UserCoins(uid), 5}}},
			"coin kind on income":  {Kind: "topup", Key: "k3", Legs: []Leg{{System(SysIncomePaid), -5}, {UserIncome(uid), 5}}},
		} {
			err := d.Tx(context.Background(), func(ctx context.Context, tx *db.Tx) error {
				_, err := l.Post(ctx, tx, tr, now)
				return err
			})
			if !errors.Is(err, ErrUnbalanced) {
				t.Errorf("%s: %v, want refused", name, err)
			}
		}
		mustCheck(t, d)
	})
}

// Welfare coins show on the coin bill under their own title, and the bill
// filters by their type.
func TestRewardCoinsOnTheBill(t *testing.T) {
	dbtest.Each(t, func(t *testing.T, d *db.DB) {
		ctx := context.Background()
		s := NewService(d)
		uid := newUser(t, d)
		for i, kind := range []string{"checkin", "task", "prize", "invite", "code"} {
			err := d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
				return s.GrantReward(ctx, tx, uid, kind, kind+":"+strconv.Itoa(i), "", Reward{Coins: int64(i + 1)}, now)
			})
			if err != nil {
				t.Fatalf("%s: %v", kind, err)
			}
			page, err := s.Bills(ctx, uid, BillQuery{Account: Coins, Type: kind, PageNumber: 1, PageSize: 10})
			if err != nil || page.Total != 1 {
				t.Fatalf("%s: %+v %v", kind, page, err)
			}
			if e := page.List[0]; e.Title == kind || e.Title != billTitles[kind] || e.Amount != int64(i+1) {
				t.Errorf("%s: entry %+v", kind, e)
			}
			if !slices.Contains(coinBillTypes, kind) {
				t.Errorf("%s: no chip on the coin bill", kind)
			}
		}
	})
}
