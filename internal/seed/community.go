package seed

// The demo community: topics with covers, a few writers, about forty posts
// across the community module's sub-modules (pictures, articles, a video or
// two; some VIP or gold), likes, comments with replies, and follows, with
// times spread over the last weeks. Posts go through community.CreatePost
// (review off, no rate limit), so they obey every publishing rule; the
// likes, comments and times are written straight after, keeping each
// post's counts equal to its rows.

import (
	"context"
	"fmt"
	"strings"
	"time"

	"prima/internal/account"
	"prima/internal/app"
	"prima/internal/community"
	"prima/internal/platform/db"
)

// communityWriters are demo users who write in the community besides the
// demo accounts. They share the demo account's password (demo123).
var communityWriters = []struct{ Account, Name, Bio string }{
	{"lin_photo", "林间摄影", "胶片与数码，记录光"},
	{"xiaoyu", "小雨同学", "爱读书也爱跑步"},
	{"chef_wang", "王师傅的厨房", "家常菜三十年"},
	{"travel_mo", "莫莫去旅行", "背包走过 30 个城市"},
	{"maomao", "猫毛满天飞", "两只猫的铲屎官"},
}

var communityTopics = []struct{ Name, Desc string }{
	{"摄影日常", "随手拍下的每一天：街头、人像、风景都欢迎"},
	{"旅行见闻", "路上的风景与故事，攻略和踩坑都可以分享"},
	{"美食分享", "家常菜、探店、甜点，晒出你的好味道"},
	{"猫狗日记", "毛孩子们的日常，萌照和养宠经验"},
	{"读书笔记", "读过的书、划过的线、想说的话"},
	{"健身打卡", "每天进步一点点，一起坚持"},
	{"城市夜景", "灯火阑珊处的城市另一面"},
}

var communityLines = []string{
	"今天的光线特别好，随手拍了几张，分享给大家。",
	"周末去了一趟郊外，空气清新，心情也跟着好起来了。",
	"第一次尝试这个做法，没想到效果还不错！",
	"记录一下最近的生活，平淡但很充实。",
	"有没有同好？评论区聊聊你们的经验。",
	"这组照片调色花了不少时间，大家觉得怎么样？",
	"坚持第 30 天，终于看到变化了。",
	"夜里的城市和白天完全不一样，安静又热闹。",
}

var communityArticles = []struct{ Title, HTML string }{
	{"新手摄影的五个建议", `<h2>先学会看光</h2><p>好照片的一半是<b>光线</b>。清晨和傍晚的光最柔和。</p><h3>构图</h3><ul><li>三分法</li><li>引导线</li><li>留白</li></ul><blockquote>多拍、多看、多想。</blockquote><p>最后，<i>别急着买器材</i>。</p>`},
	{"一周减脂餐记录", `<h2>原则</h2><p>少油少盐，<strong>蛋白质优先</strong>。</p><ol><li>周一：鸡胸肉沙拉</li><li>周二：清蒸鱼</li><li>周三：牛肉荞麦面</li></ol><p>坚持下来，体重降了 1.5 公斤。</p>`},
	{"带猫搬家全攻略", `<h2>搬家前</h2><p>提前一周把<b>航空箱</b>放在家里，让猫熟悉它。</p><h2>搬家当天</h2><ul><li>先把猫关在安静的房间</li><li>最后再搬猫</li></ul><h3>到新家</h3><p>先给一个小房间，慢慢扩大活动范围。</p>`},
	{"读《活着》有感", `<p>福贵的一生，是失去的一生，也是<em>活着</em>的一生。</p><blockquote>人是为活着本身而活着，而不是为了活着之外的任何事物所活着。</blockquote><p>读完很久都没缓过来。</p>`},
	{"三天两夜的古镇行程", `<h2>第一天</h2><p>下午到达，逛<b>老街</b>，晚上看夜景。</p><h2>第二天</h2><ol><li>早起看日出</li><li>乘船游河</li><li>尝当地小吃</li></ol><h2>第三天</h2><p>睡到自然醒，返程。<a href="https://example.com/guide">参考攻略</a></p>`},
	{"城市夜拍参数分享", `<h2>器材</h2><p>三脚架是<strong>必须</strong>的。</p><h3>参数</h3><ul><li>ISO 100</li><li>光圈 f/8</li><li>快门 10 秒</li></ul><p>车流光轨要等红绿灯变化。</p>`},
	{"我的读书方法", `<h2>做笔记</h2><p>每读完一章，写三句话总结。</p><h2>重读</h2><p>好书值得<u>读第二遍</u>。</p>`},
	{"家常红烧肉", `<h2>材料</h2><ul><li>五花肉 500 克</li><li>冰糖 30 克</li><li>生抽、老抽</li></ul><h2>做法</h2><ol><li>焯水去腥</li><li>炒糖色</li><li>小火炖一小时</li></ol><p><b>秘诀</b>：耐心。</p>`},
}

var communityComments = []string{"拍得真好！", "学到了，谢谢分享", "这是在哪里？", "太可爱了吧", "收藏了", "求更多", "同感！", "下次我也试试"}

// seedCommunity makes the demo community; it does nothing when posts exist.
// owner owns the demo media (pictures and clips).
func seedCommunity(ctx context.Context, a *app.App, owner int64) (string, error) {
	d := a.DB
	var posts int
	if err := d.QueryRow(ctx, `SELECT COUNT(*) FROM posts`).Scan(&posts); err != nil {
		return "", err
	}
	if posts > 0 {
		return "  community already present: nothing changed", nil
	}
	now := time.Now()
	ids := func(q string, args ...any) ([]int64, error) {
		return db.All(ctx, d, func(s db.Scanner) (int64, error) {
			var id int64
			return id, s.Scan(&id)
		}, q, args...)
	}
	pics, err := ids(`SELECT id FROM media_assets WHERE owner_uid = ? AND kind = 'image' AND state = 'ready' ORDER BY id`, owner)
	if err != nil {
		return "", err
	}
	clips, err := ids(`SELECT id FROM media_assets WHERE owner_uid = ? AND kind = 'video' AND state <> 'failed' ORDER BY id LIMIT 2`, owner)
	if err != nil {
		return "", err
	}
	subs, err := ids(`SELECT s.id FROM modules s JOIN modules m ON m.id = s.pid WHERE m.module_type = 1 ORDER BY s.sort, s.id`)
	if err != nil {
		return "", err
	}

	// Authors: the demo accounts and the writers (with the demo password).
	var authors []int64
	var hash string
	for _, u := range account.DemoUsers {
		var id int64
		var h string
		if err := d.QueryRow(ctx, `SELECT id, password_hash FROM users WHERE account = ?`, u.Account).Scan(&id, &h); err != nil {
			return "", fmt.Errorf("demo user %s: %w", u.Account, err)
		}
		if hash == "" {
			hash = h
		}
		authors = append(authors, id)
	}
	err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		for _, w := range communityWriters {
			var id int64
			err := tx.QueryRow(ctx, `INSERT INTO users (name, account, password_hash, bio, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)
				ON CONFLICT DO NOTHING RETURNING id`, w.Name, w.Account, hash, w.Bio, now.Unix(), now.Unix()).Scan(&id)
			if err != nil {
				if err := tx.QueryRow(ctx, `SELECT id FROM users WHERE account = ?`, w.Account).Scan(&id); err != nil {
					return err
				}
			}
			authors = append(authors, id)
		}
		// The writers' own copies of the demo pictures (the same files):
		// a post's pictures are its author's uploads.
		for _, uid := range authors[1:] {
			if _, err := tx.Exec(ctx, `INSERT INTO media_assets (owner_uid, kind, state, source_key, display_key, thumb_key, display_webp,
				thumb_webp, hls_prefix, poster_key, preview_prefix, width, height, duration_ms, video_codec, audio_codec, placeholder, error, created_at, updated_at)
				SELECT ?, kind, state, source_key, display_key, thumb_key, display_webp, thumb_webp, hls_prefix, poster_key, preview_prefix,
				width, height, duration_ms, video_codec, audio_codec, placeholder, error, created_at, updated_at
				FROM media_assets WHERE owner_uid = ? AND kind = 'image' AND state = 'ready' ORDER BY id`, uid, owner); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	picsOf := map[int64][]int64{owner: pics}
	for _, uid := range authors {
		if uid != owner {
			if picsOf[uid], err = ids(`SELECT id FROM media_assets WHERE owner_uid = ? AND kind = 'image' ORDER BY id`, uid); err != nil {
				return "", err
			}
		}
	}

	// Topics, with covers published from the demo pictures.
	var topics []int64
	for i, t := range communityTopics {
		cover := ""
		if len(pics) > 0 && a.Uploads != nil {
			if cover, err = a.Uploads.PublishCover(ctx, pics[(i*3+2)%len(pics)]); err != nil {
				return "", fmt.Errorf("topic cover: %w", err)
			}
		}
		var id int64
		if err := d.QueryRow(ctx, `INSERT INTO topics (name, description, cover, sort, status, created_at) VALUES (?, ?, ?, ?, 1, ?) RETURNING id`,
			t.Name, t.Desc, cover, len(communityTopics)-i, now.Unix()).Scan(&id); err != nil {
			return "", err
		}
		topics = append(topics, id)
	}

	// Posts, through the publishing rules (no rate limit, no realtime).
	cs := *a.Community
	cs.Limiter, cs.Events = nil, nil
	const total = 40
	var made []int64
	for i := range total {
		author := authors[i%len(authors)]
		in := community.PostInput{ClientID: fmt.Sprintf("seed-%02d", i), TopicID: topics[(i*5)%len(topics)]}
		if len(subs) > 0 {
			in.ModuleID = subs[i%len(subs)]
		}
		mine := picsOf[author]
		switch {
		case i%10 == 4 && len(clips) > 0 && i/10 < len(clips):
			author = owner
			in.Kind, in.VideoAssetID, in.Text = community.KindVideo, clips[i/10], "一段小视频，"+communityLines[i%len(communityLines)]
		case i%4 == 3 || len(mine) == 0:
			art := communityArticles[i%len(communityArticles)]
			in.Kind, in.Title, in.HTML = community.KindArticle, art.Title, art.HTML
			if len(mine) > 0 && i%8 == 3 {
				in.HTML += fmt.Sprintf(`<p>配图：</p><img data-asset="%d">`, mine[i%len(mine)])
			}
		default:
			in.Kind, in.Text = community.KindPicture, communityLines[i%len(communityLines)]
			if i%3 == 0 {
				in.Title = strings.TrimSuffix(communityTopics[(i*5)%len(communityTopics)].Name, "日常") + "·随拍"
			}
			n := 1 + (i*7)%community.MaxPictures
			for j := range min(n, len(mine)) {
				in.Pictures = append(in.Pictures, mine[(i*3+j)%len(mine)])
			}
		}
		switch {
		case i%9 == 5:
			in.VipLevel = 1
		case i%13 == 7:
			in.Coins = 20
		}
		c, err := cs.CreatePost(ctx, author, in)
		if err != nil {
			return "", fmt.Errorf("seed post %d: %w", i, err)
		}
		made = append(made, c.ID)
	}

	// Times, likes, comments, views, featured and pinned posts, follows.
	var likes, comments int
	err = d.Tx(ctx, func(ctx context.Context, tx *db.Tx) error {
		for i, id := range made {
			at := now.Unix() - int64((total-i)*(21*86400/total)) - int64(i*137%3600)
			var author int64
			if err := tx.QueryRow(ctx, `SELECT author_id FROM posts WHERE id = ?`, id).Scan(&author); err != nil {
				return err
			}
			var others []int64
			for _, u := range authors {
				if u != author {
					others = append(others, u)
				}
			}
			nl := (i * 5) % (len(others) + 1)
			for j := range nl {
				if _, err := tx.Exec(ctx, `INSERT INTO post_likes (user_id, post_id, created_at) VALUES (?, ?, ?)`, others[(i+j)%len(others)], id, at+int64(60*(j+1))); err != nil {
					return err
				}
			}
			likes += nl
			nc, cc := (i*3)%5, 0
			for j := range nc {
				who := others[(i+2*j)%len(others)]
				var cid int64
				if err := tx.QueryRow(ctx, `INSERT INTO comments (post_id, parent_id, author_id, body, state, created_at) VALUES (?, 0, ?, ?, 'published', ?) RETURNING id`,
					id, who, communityComments[(i+j)%len(communityComments)], at+int64(300*(j+1))).Scan(&cid); err != nil {
					return err
				}
				cc++
				if j == 0 && i%2 == 0 {
					// The author answers the first comment.
					if _, err := tx.Exec(ctx, `INSERT INTO comments (post_id, parent_id, author_id, reply_to_uid, body, state, created_at) VALUES (?, ?, ?, ?, '谢谢喜欢！', 'published', ?)`,
						id, cid, author, who, at+int64(900)); err != nil {
						return err
					}
					if _, err := tx.Exec(ctx, `UPDATE comments SET reply_count = 1 WHERE id = ?`, cid); err != nil {
						return err
					}
					cc++
				}
			}
			comments += cc
			featured := 0
			if i%12 == 1 {
				featured = 1
			}
			pinned := int64(0)
			if i == total-3 {
				pinned = now.Unix()
			}
			if _, err := tx.Exec(ctx, `UPDATE posts SET state = 'published', created_at = ?, published_at = ?, updated_at = ?, like_count = ?, comment_count = ?,
				view_count = ?, featured = ?, pinned_at = ? WHERE id = ?`, at, at, at, nl, cc, int64(20+(i*37)%400), featured, pinned, id); err != nil {
				return err
			}
		}
		// The demo account follows the writers and two topics.
		for _, u := range authors[1:] {
			if _, err := tx.Exec(ctx, `INSERT INTO follows (follower_id, followee_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, authors[0], u, now.Unix()); err != nil {
				return err
			}
		}
		for _, t := range topics[:2] {
			if _, err := tx.Exec(ctx, `INSERT INTO topic_follows (user_id, topic_id, created_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, authors[0], t, now.Unix()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return "", err
	}
	var accts []string
	for _, w := range communityWriters {
		accts = append(accts, w.Account)
	}
	return fmt.Sprintf("  community: %d topics, %d posts in %d sub-modules, %d likes, %d comments; writers %s (password demo123)",
		len(topics), len(made), len(subs), likes, comments, strings.Join(accts, ", ")), nil
}
