package seed

import (
	"context"
	"time"

	"prima/internal/platform/db"
	"prima/internal/rewards"
)

// welfareTasks and welfarePrizes are the demo welfare configuration (the
// check-in cycle comes with its migration). They go through the service's
// own validation, as an operator's would.
var welfareTasks = []rewards.TaskDef{
	{Title: "每日签到", Desc: "签到时自动完成，奖励随签到一起发放", Kind: rewards.KindDaily, Metric: "checkin", Target: 1, Reward: rewards.DayReward{Points: 5}, Link: "/mine/userfulitask"},
	{Title: "观看3个视频", Desc: "今日观看任意3个视频", Kind: rewards.KindDaily, Metric: "watch", Target: 3, Reward: rewards.DayReward{Points: 10}, Link: "/home"},
	{Title: "点赞1个视频", Desc: "给喜欢的视频点个赞", Kind: rewards.KindDaily, Metric: "like", Target: 1, Reward: rewards.DayReward{Points: 10}, Link: "/home"},
	{Title: "绑定手机号", Desc: "绑定后可用手机号找回账号", Kind: rewards.KindOnce, Metric: "bind_phone", Target: 1, Reward: rewards.DayReward{Points: 50}, Link: "/mine/bindphone"},
	{Title: "设置头像", Desc: "上传一张自己的头像", Kind: rewards.KindOnce, Metric: "portrait", Target: 1, Reward: rewards.DayReward{Points: 30}, Link: "/mine/profile"},
	{Title: "首次充值", Desc: "完成任意一笔金币充值", Kind: rewards.KindOnce, Metric: "topup", Target: 1, Reward: rewards.DayReward{Points: 100, Coins: 20}, Link: "/mine/usercoinchongzhi"},
}

func ptr(n int64) *int64 { return &n }

var welfarePrizes = []rewards.Prize{
	{Title: "10金币", Cost: 100, Reward: rewards.PrizeReward{Coins: 10}},
	{Title: "VIP体验1天", Cost: 200, Reward: rewards.PrizeReward{VIPLevel: 1, VIPDays: 1}, PerUserLimit: 3},
	{Title: "金币券1张", Cost: 150, Reward: rewards.PrizeReward{Coupons: 1}},
	{Title: "VIP 7天", Cost: 1000, Reward: rewards.PrizeReward{VIPLevel: 1, VIPDays: 7}, Stock: ptr(50), PerUserLimit: 1},
}

// seedWelfare writes the demo tasks and prizes in tx.
func seedWelfare(ctx context.Context, tx *db.Tx, now int64, st *stats) error {
	w := rewards.NewWelfare(nil, nil, nil, nil)
	at := time.Unix(now, 0)
	for i, d := range welfareTasks {
		d.Active, d.Sort = true, int64(i+1)
		if _, err := w.SaveTask(ctx, tx, d, at); err != nil {
			return err
		}
		st.welfare++
	}
	for i, p := range welfarePrizes {
		p.Active, p.Sort = true, int64(i+1)
		if _, err := w.SavePrize(ctx, tx, p, at); err != nil {
			return err
		}
		st.welfare++
	}
	return nil
}
