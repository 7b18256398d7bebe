package seed

import (
	"fmt"
	"math/rand/v2"
	"strings"

	"prima/internal/catalog"
)

// The demo catalogue is planned in memory first, from a PRNG with a fixed
// seed, so every install gets the same modules, titles and numbers (only
// creation times move with the day of seeding). PCG's output is fixed by
// its definition and the plan uses integers only, so it does not change
// with the Go version or the platform.

const (
	seedHi = 0x5eed_0001
	seedLo = 0x9e37_79b9_7f4a_7c15
)

// moduleSpec is a top-level module with its sub-modules and what its videos
// look like.
type moduleSpec struct {
	Name  string
	Type  int
	Sort  int
	Subs  []string
	Per   int  // videos per sub-module
	Short bool // vertical short videos (module type 4)
	// Title makes a title from the PRNG and the video's number in the module.
	Title func(r *rand.Rand, n int) string
	// Duration in seconds, of a video the seed gives no clip: one with a
	// clip takes the clip's (media.go, attachClips). Still drawn for every
	// video, so the rest of the plan stays as it was.
	Duration func(r *rand.Rand) int
}

// Word lists the titles are built from.
var (
	places    = []string{"江南", "北京", "海边", "山间", "城南", "老城", "小镇", "岛上", "雪国", "沙漠", "草原", "港口"}
	times     = []string{"深夜", "清晨", "午后", "黄昏", "雨季", "冬日", "盛夏", "初秋", "周末", "假日"}
	things    = []string{"食堂", "列车", "书店", "咖啡馆", "旧巷", "灯塔", "集市", "老街", "画室", "剧场", "邮局", "渡口", "面馆", "花店"}
	genres    = []string{"往事", "纪实", "日记", "奇遇", "之旅", "传说", "回忆录", "故事", "来信", "秘密"}
	people    = []string{"少年", "外卖员", "厨师", "画家", "侦探", "老师", "摄影师", "歌手", "店长", "旅人", "船长", "医生"}
	verbs     = []string{"寻找", "守护", "告别", "等待", "追逐", "重逢"}
	objects   = []string{"失落的信", "最后一班车", "那片海", "旧相机", "一首歌", "回家的路", "夏天", "星空"}
	shorts    = []string{"一分钟学会", "挑战", "开箱", "日常", "打卡", "翻唱", "教程", "测评"}
	subjects  = []string{"家常菜", "街舞", "猫咪", "宿舍好物", "健身", "手工", "吉他", "早餐", "露营", "妆容", "魔术", "萌宠"}
	mysteries = []string{"密室", "失踪", "悬案", "暗号", "档案", "迷城", "旧宅", "夜航"}
	posts     = []string{"今天的晚霞", "周末去哪儿", "新买的相机", "我家的猫", "一个人的旅行", "深夜食堂", "早起打卡", "读书笔记"}
)

func pick(r *rand.Rand, list []string) string { return list[r.IntN(len(list))] }

// catalogueSpec is the demo's modules. Module type 3 (images) gets its
// sub-modules but no videos: galleries are their own kind of content.
var catalogueSpec = []moduleSpec{
	{
		Name: "首页", Type: 0, Sort: 1, Per: 20,
		Subs: []string{"推荐", "最新", "热门", "国产", "日韩", "欧美", "动漫", "纪录片"},
		Title: func(r *rand.Rand, n int) string {
			switch r.IntN(4) {
			case 0:
				return pick(r, places) + pick(r, things) + pick(r, genres)
			case 1:
				return pick(r, times) + "的" + pick(r, things)
			case 2:
				return pick(r, people) + pick(r, verbs) + pick(r, objects)
			default:
				return fmt.Sprintf("%s%s 第%d集", pick(r, places), pick(r, genres), 1+r.IntN(24))
			}
		},
		Duration: func(r *rand.Rand) int {
			// A spread over every playTimeType band: a quarter under 5 min,
			// the rest up to two hours.
			switch x := r.IntN(100); {
			case x < 25:
				return 30 + r.IntN(270)
			case x < 60:
				return 300 + r.IntN(900)
			default:
				return 1200 + r.IntN(6001)
			}
		},
	},
	{
		Name: "社区", Type: 1, Sort: 2, Per: 10,
		Subs: []string{"广场", "问答", "热帖", "话题", "晒图"},
		Title: func(r *rand.Rand, n int) string {
			switch r.IntN(3) {
			case 0:
				return "分享一下" + pick(r, posts)
			case 1:
				return pick(r, posts) + "｜" + pick(r, times) + "随拍"
			default:
				return pick(r, places) + pick(r, things) + "打卡"
			}
		},
		Duration: func(r *rand.Rand) int { return 30 + r.IntN(870) },
	},
	{
		Name: "暗网", Type: 2, Sort: 3, Per: 15,
		Subs: []string{"独家", "悬疑", "惊悚", "解密"},
		Title: func(r *rand.Rand, n int) string {
			if r.IntN(2) == 0 {
				return "「" + pick(r, mysteries) + "」" + pick(r, people) + "的" + pick(r, genres)
			}
			return fmt.Sprintf("%s%s·第%d夜", pick(r, places), pick(r, mysteries), 1+r.IntN(12))
		},
		Duration: func(r *rand.Rand) int { return 60 + r.IntN(3541) },
	},
	{
		Name: "图片", Type: 3, Sort: 4, Per: 0,
		Subs: []string{"写真", "风景", "插画", "壁纸"},
	},
	{
		Name: "短视频", Type: 4, Sort: 5, Per: 15, Short: true,
		Subs: []string{"推荐", "关注", "热门", "搞笑", "美食", "舞蹈"},
		Title: func(r *rand.Rand, n int) string {
			if r.IntN(2) == 0 {
				return pick(r, shorts) + pick(r, subjects)
			}
			return pick(r, subjects) + pick(r, shorts) + fmt.Sprintf(" #%d", 1+r.IntN(99))
		},
		Duration: func(r *rand.Rand) int { return 30 + r.IntN(151) },
	},
}

// tagNames are the demo's tags, in display order.
var tagNames = []string{"高清", "独家", "热门", "新片", "剧情", "搞笑", "美食", "旅行", "音乐", "舞蹈", "动漫", "科幻", "纪录片", "经典", "短剧"}

// plannedVideo is a video of the plan; Module and Sub index catalogueSpec.
type plannedVideo struct {
	Module, Sub int
	catalog.NewVideo
	AgeSeconds int64 // created this long before seeding
	Tags       []int // indexes into tagNames
}

// planVideos lays out every video of the demo, deterministically.
func planVideos() []plannedVideo {
	r := rand.New(rand.NewPCG(seedHi, seedLo))
	var out []plannedVideo
	for mi, m := range catalogueSpec {
		n := 0
		for si := range m.Subs {
			for range m.Per {
				n++
				v := plannedVideo{Module: mi, Sub: si}
				title := m.Title(r, n)
				// Keep titles unique within a module so lists look real.
				for tries := 0; tries < 8 && seenTitle(out, mi, title); tries++ {
					title = m.Title(r, n)
				}
				v.Title = title
				v.Duration = m.Duration(r)
				v.Width, v.Height = 1920, 1080
				if m.Short {
					v.Width, v.Height = 1080, 1920
				}
				// Plays from a hundred to a few million, spread evenly over
				// the orders of magnitude like real traffic (integers only, so
				// no platform's floating point can change the plan); likes
				// 1-8% of plays.
				mag := int64(1)
				for range r.IntN(5) {
					mag *= 10
				}
				v.PlayCount = 100*mag + r.Int64N(900*mag)
				v.LikeCount = v.PlayCount * int64(1+r.IntN(8)) / 100
				switch x := r.IntN(100); {
				case x < 8:
					v.VipLevel = 2
				case x < 28:
					v.VipLevel = 1
				case x < 43:
					v.Coins = int64(5 * (1 + r.IntN(10))) // 5..50 coins
				}
				v.Published = true
				// Up to 60 days old; about one in eight from the last week.
				if r.IntN(8) == 0 {
					v.AgeSeconds = int64(600 + r.IntN(7*86400-1200))
				} else {
					v.AgeSeconds = int64(7*86400 + r.IntN(53*86400))
				}
				k := 1 + r.IntN(3)
				for _, t := range r.Perm(len(tagNames))[:k] {
					v.Tags = append(v.Tags, t)
				}
				out = append(out, v)
			}
		}
	}
	return out
}

func seenTitle(vs []plannedVideo, module int, title string) bool {
	for i := len(vs) - 1; i >= 0 && vs[i].Module == module; i-- {
		if vs[i].Title == title {
			return true
		}
	}
	return false
}

// announcements of the demo, newest first.
var announcements = []catalog.Announcement{
	{Title: "欢迎来到精品", Content: "这是一个演示站点：所有视频、图片与数据均为自动生成，可随意浏览与体验。", Link: "/home"},
	{Title: "VIP会员限时优惠", Content: "开通VIP即可观看全部会员视频，超级VIP还可免费观看付费内容。", Link: "/mine/vipcenter"},
	{Title: "每日签到领积分", Content: "每天签到、完成任务即可领取积分，积分可兑换会员与礼品。", Link: "/mine/userfulitask"},
}

// adSpec is an ad with the banner drawn for it.
type adSpec struct {
	catalog.Ad
	Key   string // blob key of its image
	Art   artwork
	Order int
}

// ads of the demo: every link is a page of the app itself.
var ads = []adSpec{
	{Ad: catalog.Ad{Title: "开通VIP 畅享全站", Link: "/mine/vipcenter", Position: "splash"}, Key: "ads/splash-1.jpg", Art: artwork{W: 540, H: 960, Hue: 0.08, Label: "VIP"}},
	{Ad: catalog.Ad{Title: "会员限时五折", Link: "/mine/vipcenter", Position: "home_banner"}, Key: "ads/banner-1.jpg", Art: artwork{W: 750, H: 300, Hue: 0.95, Label: "VIP 50%"}, Order: 1},
	{Ad: catalog.Ad{Title: "每日签到领积分", Link: "/mine/userfulitask", Position: "home_banner"}, Key: "ads/banner-2.jpg", Art: artwork{W: 750, H: 300, Hue: 0.35, Label: "CHECK IN"}, Order: 2},
	{Ad: catalog.Ad{Title: "金币充值 多充多送", Link: "/mine/usercoinchongzhi", Position: "home_banner"}, Key: "ads/banner-3.jpg", Art: artwork{W: 750, H: 300, Hue: 0.6, Label: "COINS"}, Order: 3},
	{Ad: catalog.Ad{Title: "邀请好友 免费看片", Link: "/mine/shareyaoqing", Position: "popup"}, Key: "ads/popup-1.jpg", Art: artwork{W: 600, H: 800, Hue: 0.75, Label: "INVITE"}},
}

// preSaleSpec is a pre-sale banner with the picture drawn for it.
type preSaleSpec struct {
	catalog.PreSale
	Key string
	Art artwork
}

// preSales are the pre-sale banners: each kind, before and after the sale.
func preSales() []preSaleSpec {
	kinds := []struct {
		typ  int
		name string
		w, h int
	}{{1, "cover", 750, 420}, {2, "float", 240, 240}, {3, "popup", 600, 800}}
	var out []preSaleSpec
	for _, k := range kinds {
		for _, st := range []struct {
			status int
			label  string
		}{{1, "SOON"}, {2, "SALE"}} {
			key := immutableKey(fmt.Sprintf("presale/%s-%d.jpg", k.name, st.status), "presale")
			out = append(out, preSaleSpec{
				PreSale: catalog.PreSale{Type: k.typ, Status: st.status, URL: "/media/" + key},
				Key:     key,
				Art:     artwork{W: k.w, H: k.h, Hue: 0.02 + 0.1*float64(st.status), Label: st.label},
			})
		}
	}
	return out
}

// sourceEntries is the remote configuration, every key of spec §3. Links are
// pages of the app or this server; a key with no honest value here (an App
// Store listing, a chat group, a proxy rule) is left empty or points at the
// official site, for the operator to set (POST /api/admin/source).
func sourceEntries(publicURL string) map[string][]catalog.SourceEntry {
	site := strings.TrimSuffix(publicURL, "/")
	home := site + "/"
	if site == "" {
		home = "/"
	}
	return map[string][]catalog.SourceEntry{
		"APPNAME":               {{Title: "精品"}},
		"OFFICALWEBSITEADDRESS": {{Title: "官网", URL: home, Weight: 1}},
		"COMMUNITYLAYOUT":       {{Title: "双列", Weight: 1}},
		"GROUP":                 supportEntries(home)["GROUP"],
		"CUST":                  {{Title: "意见反馈", URL: "/mine/suggest", Weight: 1}},
		"GUIDE":                 {{Title: "新手指南", URL: "/mine/help", Weight: 1}},
		"IMAGE":                 {{Title: "图片线路", URL: site + "/media", Weight: 1}},
		"VID":                   {{Title: "视频线路", URL: site + "/media", Weight: 1}},
		"LAND":                  {{Title: "落地页", URL: home, Weight: 1}},
		"PROXYRULE":             {},
		"FAQ":                   supportEntries(home)["FAQ"],
		"QRCODE":                {{Title: "扫码打开", URL: home, Weight: 1}},
		"WELFARE":               {{Title: "福利任务", URL: "/mine/userfulitask", Weight: 1}},
		"ACT":                   {{Title: "签到活动", URL: "/mine/userfulitask", Weight: 1}},
		"AppStore":              {},
		"VIPCARD":               {{Title: "VIP会员", URL: "/mine/vipcenter", Weight: 1}},
		"MODULESELECTINDEX":     {{Title: "1", Weight: 1}},
		"ANDROIDVERSION":        {{Title: "1.1.3", Weight: 1}},
		"IOSVERSION":            {{Title: "1.1.3", Weight: 1}},
		"UP":                    {{Title: "UP主入驻", URL: "/mine/settled", Weight: 1}},
		"NAVOPEN":               {{Title: "开启", Weight: 1}},
		"APPS":                  supportEntries(home)["APPS"],
	}
}

// supportEntries are the lists the support pages read (mine/help,
// mine/groups, the application centre): what this app really answers and
// offers. They are also added to an install seeded before they existed
// (seedSupport), key by key, unless an operator has set the key.
func supportEntries(home string) map[string][]catalog.SourceEntry {
	return map[string][]catalog.SourceEntry{
		"FAQ": {
			{Title: "如何开通VIP会员？", URL: "进入「我的」→「VIP会员」，选择套餐并完成支付，开通后立即生效。\nVIP 可观看全部 VIP 视频；超级VIP 另可观看超级VIP专区。", Weight: 1},
			{Title: "金币有什么用？如何充值？", URL: "金币可以购买金币视频和付费图集。\n在「我的」→「金币充值」选择金额并支付，到账后可在「金币明细」查看。", Weight: 1},
			{Title: "收益如何提现？", URL: "进入「我的」→「提现」，先添加银行卡或 USDT 地址，再填写金额提交。运营审核后打款，结果会以系统消息通知你。", Weight: 1},
			{Title: "视频加载慢或无法播放怎么办？", URL: "应用会自动选择最快的线路。如仍无法播放，请切换网络（Wi-Fi / 移动数据）后重试；问题持续时请在「意见反馈」附上截图告诉我们。", Weight: 1},
			{Title: "换手机后如何找回账号？", URL: "在「账号安全」里保存账号凭证图片，换设备后在登录页上传这张图片即可登录；绑定手机号后也可以用短信验证码找回密码。", Weight: 1},
			{Title: "如何成为创作者（UP主）？", URL: "在「我的」→「UP主入驻」填写名称、联系方式和简介提交申请，审核结果会以系统消息通知你；未通过可修改后重新申请。", Weight: 1},
		},
		"GROUP": {
			{Title: "官方网站 · 获取最新地址", URL: home, Weight: 1},
		},
		"APPS": {
			{Title: "精品 网页版", URL: home, Weight: 1, Desc: "在 Safari 中打开，点「分享」→「添加到主屏幕」，像 App 一样使用"},
		},
	}
}
