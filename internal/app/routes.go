package app

import (
	"context"
	"net/http"
	"strings"
	"time"

	"prima/internal/account"
	"prima/internal/admin"
	"prima/internal/catalog"
	"prima/internal/community"
	"prima/internal/earnings"
	"prima/internal/gallery"
	"prima/internal/media"
	"prima/internal/messaging"
	"prima/internal/operator"
	"prima/internal/platform/blob"
	"prima/internal/platform/httpx"
	"prima/internal/report"
	"prima/internal/rewards"
	"prima/internal/support"
	"prima/internal/wallet"
	"prima/internal/wordfilter"
)

// routes is Prima's one route table. Paths and parameter names are the
// spec's (§7); GET takes query parameters, POST a JSON object. API routes
// (h) live in their own table, which answers unknown paths and wrong
// methods with envelopes and refuses bodies that are not JSON (upload
// routes opt in with httpx.Multipart, callbacks with httpx.Accepts).
func (a *App) routes(webApp, console http.Handler) *http.ServeMux {
	acct := account.NewHandler(a.Account)
	cat := catalog.NewHandler(a.Catalog)
	mux := http.NewServeMux()
	api := httpx.NewAPIMux()
	h := func(pattern string, fn httpx.Handler) {
		if isAdmin(pattern) {
			panic("routes: " + pattern + " is under /api/admin: mount it with op(access, pattern, handler)")
		}
		api.Handle(pattern, fn)
	}
	// op mounts an /api/admin route behind the console's gate with the
	// access it names: the roles it opens to (owner always), step-up,
	// sessions only (docs/architecture.md, *Operator identity*). It is the
	// only way in: h refuses /api/admin patterns, and the table test
	// (internal/app/access_test.go) calls every route op mounted as every
	// role, so a route without its roles cannot be added unnoticed.
	opr := operator.NewHandler(a.Operators, a.adminAllow)
	a.adminRoutes = nil
	op := func(access operator.Access, pattern string, fn httpx.Handler) {
		if !isAdmin(pattern) {
			panic("routes: op(" + pattern + ") is not under /api/admin")
		}
		a.adminRoutes = append(a.adminRoutes, operator.Route{Pattern: pattern, Access: access})
		api.Handle(pattern, opr.Gate(access, fn))
	}

	// Process health for orchestrators and load balancers: liveness says
	// the process answers, readiness that its dependencies do.
	mux.HandleFunc("GET /healthz", httpx.Healthz)
	mux.Handle("GET /readyz", httpx.Readyz(func() []httpx.Check { return a.Checks }))

	// Line health: the client pings every API line and media line.
	h("GET /api/app/ping/check", a.pingCheck)
	mux.HandleFunc("GET /check", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		_, _ = w.Write([]byte("ok"))
	})
	h("GET /api/app/ping/domain/h5", cat.Domains)
	// Error reports (unreachable lines, payment errors): public, throttled.
	rep := report.NewHandler(a.Reports)
	h("POST /api/app/report/error", rep.Submit)

	// Accounts.
	h("POST /api/app/mine/login", acct.GuestLogin)
	h("POST /api/app/mine/login/h5", acct.PasswordLogin)
	h("POST /api/app/mine/register", acct.Register)
	h("POST /api/app/mine/logout", acct.RequireUser(acct.Logout))
	h("GET /api/app/mine/info", acct.RequireUser(acct.Info))
	// Account certificate (docs/api.md, *Account certificate*): shown and
	// reset by its user (a guest too); a saved picture is read back by the
	// public extract call, and POST mine/login with qrCnt signs in with it.
	h("GET /api/app/mine/certificate/qr", acct.RequireUser(acct.Certificate))
	h("POST /api/app/mine/certificate/reset", acct.RequireUser(acct.ResetCertificate))
	api.Handle("POST /api/app/mine/qrcode/extract", httpx.Multipart(httpx.Handler(acct.ExtractQR)))

	// People (docs/api.md, *Profiles and follows*): editing one's profile
	// and following need a user (following a registered one); counts and
	// lists of anyone are public, the caller's own need a token.
	ppl := community.NewHandler(a.Community)
	h("POST /api/app/mine/info", acct.RequireUser(acct.UpdateInfo))
	h("GET /api/app/mine/getUserExtension", ppl.Extension)
	h("POST /api/app/mine/follow", acct.RequireUser(ppl.Follow))
	h("GET /api/app/follow/list", ppl.List)
	// Community feeds and topics (docs/api.md, *Feeds and topics*): lists
	// are public (the follow feed needs a token); following topics needs a
	// registered user.
	h("GET /api/app/community/posts", ppl.FeedPosts)
	h("GET /api/app/community/topics", ppl.Topics)
	h("GET /api/app/community/topic", ppl.Topic)
	h("POST /api/app/community/topic/follow", acct.RequireUser(ppl.FollowTopic))
	h("GET /api/app/community/topic/followed", acct.RequireUser(ppl.FollowedTopics))
	// Publishing (docs/api.md, *Community → Publishing*): the rules are
	// public; a post needs a registered user (guests 403 in the call).
	h("GET /api/app/community/rules", ppl.PublishRules)
	h("POST /api/app/community/post", acct.RequireUser(ppl.CreatePost))
	// Community post detail (docs/api.md, *Post detail, likes and
	// comments*): reading is public; liking, commenting and deleting one's
	// own need a registered user (guests 403 in the service).
	h("GET /api/app/community/post", ppl.PostDetail)
	h("POST /api/app/community/post/like", acct.RequireUser(ppl.PostLike))
	h("POST /api/app/community/post/delete", acct.RequireUser(ppl.PostDelete))
	h("GET /api/app/community/comments", ppl.PostComments)
	h("POST /api/app/community/comment", acct.RequireUser(ppl.CommentCreate))
	h("POST /api/app/community/comment/delete", acct.RequireUser(ppl.CommentDelete))
	// Community reports (docs/api.md, *Community → Reports, purchases and
	// moderation*): registered users only (the service refuses guests).
	mod := community.NewModHandler(a.Community)
	h("POST /api/app/community/report", acct.RequireUser(mod.Report))
	// Ways in (docs/api.md, *Phone, password and devices*): SMS codes,
	// binding a phone, a forgotten password, changing the password, the
	// devices signed in. The test-only code reader exists in test mode only.
	h("POST /api/app/sms/captcha", acct.SMSCaptcha)
	h("POST /api/app/mine/bindphone", acct.RequireUser(acct.BindPhone))
	h("POST /api/app/mine/forget", acct.Forget)
	h("POST /api/app/mine/loginpwd", acct.RequireUser(acct.LoginPwd))
	h("GET /api/app/mine/sessions", acct.RequireUser(acct.Sessions))
	h("POST /api/app/mine/sessions/revoke", acct.RequireUser(acct.RevokeSessions))
	if a.SMSRecorder != nil {
		h("GET /api/test/sms/last", account.TestLastSMS(a.SMSRecorder))
	}

	// Search (docs/api.md, *Search*): public; a token only personalises
	// the cards (liked, followed).
	h("GET /api/app/search", a.Search.Search)
	h("GET /api/app/search/overview", a.Search.Overview)
	h("GET /api/app/search/suggest", a.Search.Suggest)
	h("GET /api/app/search/hot", a.Search.Hot)

	// Realtime: the signed-in user's events over a WebSocket.
	h("GET /api/app/ws", a.WS.Serve)

	// Catalog.
	h("GET /api/app/modules/list", cat.Modules)
	h("GET /api/app/modules/clist", cat.ChildModules)
	h("GET /api/app/modules/announce", cat.Announcements)
	h("GET /api/app/vid/moduleVideo", cat.ModuleVideos)
	h("GET /api/app/vid/moduleSection", cat.ModuleSections)
	h("GET /api/app/vid/moduleSection/change", cat.SectionChange)
	h("GET /api/app/vid/source", cat.Source)
	h("GET /api/app/tag/conf/list", cat.Tags)
	h("POST /api/app/ads/click", cat.AdClick)

	// Videos: detail and play are public (personal with a token); the
	// interactions and the lists under mine need a user (a guest will do).
	h("GET /api/app/vid/info", cat.VideoInfo)
	h("GET /api/app/user/videos", cat.UserVideos)
	h("POST /api/app/vid/play", cat.Play)
	h("POST /api/app/vid/like", acct.RequireUser(cat.Like))
	h("POST /api/app/vid/collect", acct.RequireUser(cat.Collect))
	h("POST /api/app/vid/report", acct.RequireUser(cat.Report))
	h("GET /api/app/vid/report/reasons", cat.ReportReasonList)
	h("GET /api/app/mine/like/infoList", acct.RequireUser(cat.MineLikes))
	h("GET /api/app/mine/collect/infoList", acct.RequireUser(cat.MineCollects))
	gal := gallery.NewHandler(a.Galleries, cat.MineCollects)
	h("GET /api/app/mine/collection", acct.RequireUser(gal.Collection))
	h("GET /api/app/mine/history", acct.RequireUser(cat.MineHistory))

	// Galleries: lists and detail are public (personal with a token).
	h("GET /api/app/gallery/list", gal.List)
	h("GET /api/app/gallery/vip", gal.VIP)
	h("GET /api/app/gallery/info", gal.Info)
	h("POST /api/app/gallery/collect", acct.RequireUser(gal.Collect))

	// Wallet (docs/api.md, *Wallet*): every call needs a user; those that
	// move money take an idempotency key.
	wal := wallet.NewHandler(a.Wallet)
	h("GET /api/app/mine/wallet", acct.RequireUser(wal.Wallet))
	h("GET /api/app/vip/product", acct.RequireUser(wal.VIPProducts))
	h("POST /api/app/vip/buy", acct.RequireUser(wal.BuyVIP))
	h("GET /api/app/vip/tiroCountdown", acct.RequireUser(wal.TiroCountdown))
	h("GET /api/app/mine/zhangdan", acct.RequireUser(wal.Zhangdan))
	h("GET /api/app/mine/iIncomes", acct.RequireUser(wal.Incomes))
	h("POST /api/app/mine/goldExchange", acct.RequireUser(wal.GoldExchange))
	// The spec's own path of the exchange lies outside /api: it is served
	// by the API table (same checks, same envelope) under the /api path.
	mux.Handle("POST /mine/goldExchange", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r2 := r.Clone(r.Context())
		r2.URL.Path, r2.URL.RawPath = "/api/app/mine/goldExchange", ""
		api.ServeHTTP(w, r2)
	}))
	h("GET /api/app/mine/txnact/bank/get", acct.RequireUser(wal.PayoutAccounts))
	h("POST /api/app/mine/txnact/bank/add", acct.RequireUser(wal.AddPayoutAccount))
	h("DELETE /api/app/mine/txnact/del", acct.RequireUser(wal.DeletePayoutAccount))
	h("POST /api/app/withdraw", acct.RequireUser(wal.Withdraw))
	h("GET /api/app/withdraw/order", acct.RequireUser(wal.WithdrawOrders))
	h("POST /api/app/vid/buy", acct.RequireUser(wal.BuyVideo))
	h("POST /api/app/gallery/buy", acct.RequireUser(wal.BuyGallery))
	h("POST /api/app/community/post/buy", acct.RequireUser(wal.BuyPost))
	h("GET /api/app/mine/buyVid", acct.RequireUser(wal.BoughtVideos))
	h("GET /api/app/backpack", acct.RequireUser(wal.Backpack))
	// Top-up orders and payment providers (pay_http.go).
	h("GET /api/app/mine/currencys", acct.RequireUser(wal.Currencys))
	h("POST /api/app/mine/topay", acct.RequireUser(wal.Topay))
	h("GET /api/app/mine/rchg/order", acct.RequireUser(wal.RchgOrders))
	h("GET /api/app/goldExtra/userList", acct.RequireUser(wal.BonusList))
	// Provider callbacks post the provider's own format, trusted only
	// through its signature; the sandbox's hosted page is plain HTML.
	api.Handle("POST /api/pay/callback/{provider}", httpx.Accepts(httpx.Handler(wal.PayCallback), "*/*"))
	// Real providers' notifications (EasyPay: GET or POST; Stripe: its
	// webhook), the provider's name in the path (docs/api.md).
	api.Handle("GET /api/pay/notify/{provider}", httpx.Accepts(httpx.Handler(wal.PayCallback), "*/*"))
	api.Handle("POST /api/pay/notify/{provider}", httpx.Accepts(httpx.Handler(wal.PayCallback), "*/*"))
	mux.HandleFunc("GET /pay/sandbox/{orderNo}", wal.SandboxPage)
	mux.HandleFunc("POST /pay/sandbox/{orderNo}", wal.SandboxAction)

	// Uploads (docs/api.md): multipart, sniffed, resized or transcoded.
	up := media.NewHandler(a.Uploads)
	api.Handle("POST /api/app/vid/uploadStatic", httpx.Multipart(acct.RequireUser(up.Upload)))
	h("GET /api/app/vid/uploadStatic", acct.RequireUser(up.Status))
	h("GET /api/app/mine/uploads", acct.RequireUser(up.Mine))

	// Support and information (docs/api.md, *Support and information*):
	// customer service, feedback, creator applications, app clicks.
	sup := support.NewHandler(a.Support)
	h("GET /api/app/im/whiteSign", cat.CustomerService)
	h("POST /api/app/apps/click", cat.AppClick)
	h("POST /api/app/mine/feedback", acct.RequireUser(sup.SendFeedback))
	h("GET /api/app/mine/feedback", acct.RequireUser(sup.MyFeedback))
	h("POST /api/app/mine/settled", acct.RequireUser(sup.Apply))
	h("GET /api/app/mine/settled", acct.RequireUser(sup.MySettled))

	// Message centre (docs/api.md, *Messages*): notices for every user,
	// conversations and direct messages for registered users.
	msg := messaging.NewHandler(a.Messages)
	h("GET /api/app/mine/notices", acct.RequireUser(msg.Notices))
	h("POST /api/app/mine/notices/read", acct.RequireUser(msg.ReadNotices))
	h("GET /api/app/mine/unread", acct.RequireUser(msg.Unread))
	h("GET /api/app/mine/conversations", acct.RequireUser(msg.Conversations))
	h("GET /api/app/message/list", acct.RequireUser(msg.List))
	h("POST /api/app/message/send", acct.RequireUser(msg.Send))
	h("POST /api/app/message/read", acct.RequireUser(msg.Read))
	h("POST /api/app/message/block", acct.RequireUser(msg.Block))
	h("GET /api/app/message/blocked", acct.RequireUser(msg.BlockedList))
	h("POST /api/app/message/report", acct.RequireUser(msg.Report))

	// Welfare (docs/api.md, *Welfare*): check-in, tasks, points prizes for
	// every signed-in user, guests included (points stay with the account).
	wf := rewards.NewWelfareHandler(a.Welfare)
	h("GET /api/app/active/checkin", acct.RequireUser(wf.Checkin))
	h("POST /api/app/active/checkin", acct.RequireUser(wf.CheckIn))
	h("GET /api/app/active/task", acct.RequireUser(wf.Tasks))
	h("POST /api/app/active/task/receive", acct.RequireUser(wf.Receive))
	h("GET /api/app/active/point/prize", acct.RequireUser(wf.Prizes))
	h("POST /api/app/active/point/prize", acct.RequireUser(wf.Exchange))
	h("GET /api/app/active/point/records", acct.RequireUser(wf.Records))
	// Redemption codes (docs/api.md, *Redemption codes*): any signed-in
	// user, a guest too; failed tries limited per user and per address.
	codes := rewards.NewCodesHandler(a.Codes)
	h("POST /api/app/code/exchange", acct.RequireUser(codes.Exchange))
	h("GET /api/app/code/records", acct.RequireUser(codes.Records))
	// Invitations (docs/api.md, *Invitations*): a user's code and
	// counts, binding an inviter (guests too), the invitee list.
	inv := rewards.NewInviteHandler(a.Invites)
	h("POST /api/app/userinvite/info", acct.RequireUser(inv.Info))
	h("POST /api/app/mine/inviteBind", acct.RequireUser(inv.Bind))
	h("POST /api/app/userinvite/userlist", acct.RequireUser(inv.UserList))
	// Earnings (docs/api.md, *Earnings*): the promoter page and its
	// application, for registered users (guests 403 in the service).
	earn := earnings.NewHandler(a.Earnings)
	h("GET /api/app/mine/promoter", acct.RequireUser(earn.Promoter))
	h("POST /api/app/mine/promoter/apply", acct.RequireUser(earn.Apply))
	h("GET /api/app/mine/commissions", acct.RequireUser(earn.Commissions))
	h("GET /api/app/mine/creator/earnings", acct.RequireUser(earn.CreatorEarnings))
	h("GET /api/app/mine/promoter/stats", acct.RequireUser(earn.Stats))
	h("GET /api/app/mine/income/summary", acct.RequireUser(earn.IncomeSummary))
	// A share link's visit, reported by the landing page after its guest login.
	h("POST /api/app/userinvite/visit", acct.RequireUser(earn.Visit))

	// Operators (docs/api.md, *Operator console* and *Operator API*):
	// every /api/admin path, known or not, is behind the console's gate
	// (a console session or an API key; a phone-app token is 401) and the
	// address allowlist; each action writes the audit log in its own
	// transaction.
	adm := admin.NewHandler(a.Account, a.DB)
	adm.People = admin.People{Balances: a.Wallet, Invites: a.Invites, Mutes: a.Community}
	// The console's own calls: sign-in and enrolment need no credential.
	op(operator.Public, "POST /api/admin/session", opr.SignIn)
	op(operator.Public, "POST /api/admin/session/enrol", opr.Enrol)
	op(anyOp, "GET /api/admin/session", opr.Session)
	op(anyOp.SessionOnly(), "DELETE /api/admin/session", opr.SignOut)
	op(anyOp.SessionOnly(), "POST /api/admin/session/stepup", opr.StepUp)
	op(anyOp, "GET /api/admin/sessions", opr.Sessions)
	op(anyOp, "POST /api/admin/sessions/revoke", opr.RevokeSession)
	op(anyOp, "GET /api/admin/keys", opr.Keys)
	op(anyOp, "POST /api/admin/keys/revoke", opr.RevokeKey)
	op(owner, "GET /api/admin/operators", opr.Operators)
	op(owner.StepUp(), "POST /api/admin/operators", opr.CreateOperator)
	op(owner.StepUp(), "POST /api/admin/operators/role", opr.SetOperatorRole)
	op(owner.StepUp(), "POST /api/admin/operators/reset-totp", opr.ResetTOTP)
	op(people, "GET /api/admin/users", adm.User)
	op(userSessions, "POST /api/admin/users/sessions/revoke", adm.RevokeSessions)
	op(owner, "GET /api/admin/audit", adm.Audit)
	op(owner, "GET /api/admin/audit.csv", adm.AuditCSV)
	op(finance, "GET /api/admin/rewards/invite", inv.AdminConfig)
	op(finance.StepUp(), "POST /api/admin/rewards/invite", inv.AdminSetConfig)
	op(finance, "GET /api/admin/invites", inv.AdminInvites)
	op(finance, "GET /api/admin/commission/config", earn.AdminConfig)
	op(finance.StepUp(), "POST /api/admin/commission/config", earn.AdminSetConfig)
	op(finance, "GET /api/admin/promoters", earn.AdminPromoters)
	op(finance, "POST /api/admin/promoters/decide", earn.AdminDecide)
	op(finance.StepUp(), "POST /api/admin/coupons/grant", wal.AdminGrantCoupons)
	op(content, "GET /api/admin/media", up.AdminList)
	op(content, "POST /api/admin/videos/media", cat.AdminAttachMedia)
	op(content, "POST /api/admin/galleries", gal.AdminCreate)
	op(content, "POST /api/admin/galleries/update", gal.AdminUpdate)
	op(content, "POST /api/admin/galleries/publish", gal.AdminPublish)
	op(content, "POST /api/admin/galleries/images", gal.AdminImages)
	op(content, "GET /api/admin/galleries/info", gal.AdminInfo)
	// Operator content (docs/api.md, "Operator content"): modules, videos, tags.
	op(content, "GET /api/admin/modules", cat.AdminModules)
	op(content, "POST /api/admin/modules", cat.AdminCreateModule)
	op(content, "POST /api/admin/modules/update", cat.AdminUpdateModule)
	op(content, "POST /api/admin/modules/delete", cat.AdminDeleteModule)
	op(content, "GET /api/admin/videos", cat.AdminVideos)
	op(content, "GET /api/admin/videos/info", cat.AdminVideoInfo)
	op(content, "POST /api/admin/videos", cat.AdminCreateVideo)
	op(content, "POST /api/admin/videos/update", cat.AdminUpdateVideo)
	op(content, "POST /api/admin/videos/tags", cat.AdminVideoTags)
	op(content, "POST /api/admin/videos/publish", cat.AdminPublishVideo)
	op(content, "POST /api/admin/videos/delete", cat.AdminDeleteVideo)
	// issue 20: videos (docs/api.md, "Operator content"): drag order of
	// modules, bulk actions on videos, and the console's own upload (the
	// phone app's uploadStatic as the operator: a console token opens no
	// /api/app call). The upload takes multipart, so it is mounted as op
	// does it, with the body types widened.
	op(content, "POST /api/admin/modules/order", cat.AdminOrderModules)
	op(content, "POST /api/admin/videos/bulk", cat.AdminBulkVideos)
	opUpload := func(access operator.Access, pattern string, fn httpx.Handler) {
		a.adminRoutes = append(a.adminRoutes, operator.Route{Pattern: pattern, Access: access})
		api.Handle(pattern, httpx.Multipart(opr.Gate(access, fn)))
	}
	opUpload(content, "POST /api/admin/media/upload", up.Upload)
	op(content, "GET /api/admin/tags", cat.AdminTags)
	op(content, "POST /api/admin/tags", cat.AdminCreateTag)
	op(content, "POST /api/admin/tags/update", cat.AdminUpdateTag)
	op(content, "POST /api/admin/tags/delete", cat.AdminDeleteTag)
	op(content, "GET /api/admin/lines", cat.AdminLines)
	op(content.StepUp(), "POST /api/admin/lines", cat.SetLines)
	op(errorReports, "GET /api/admin/reports", rep.List)
	op(moneyRead, "GET /api/admin/wallet", wal.AdminWallet)
	op(finance.StepUp(), "POST /api/admin/wallet/adjust", wal.AdminAdjust)
	op(finance, "GET /api/admin/vip/products", wal.AdminVIPProducts)
	op(finance, "POST /api/admin/vip/products", wal.AdminSaveVIPProduct)
	op(finance, "GET /api/admin/withdrawals", wal.AdminWithdrawals)
	op(finance.StepUp(), "POST /api/admin/withdrawals/approve", wal.AdminApprove)
	op(finance, "POST /api/admin/withdrawals/reject", wal.AdminReject)
	op(moneyRead, "GET /api/admin/orders", wal.AdminOrders)
	op(moneyRead, "GET /api/admin/orders/callbacks", wal.AdminCallbacks)
	op(finance.StepUp(), "POST /api/admin/orders/paid", wal.AdminOrderPaid)
	op(finance.StepUp(), "POST /api/admin/orders/refund", wal.AdminOrderRefund)
	op(finance, "GET /api/admin/currencys", wal.AdminCurrencys)
	op(finance, "POST /api/admin/currencys", wal.AdminSaveCurrency)
	// Support and information: remote configuration lists, feedback
	// replies, creator reviews, application centre clicks.
	op(content, "GET /api/admin/source", cat.AdminSource)
	op(content.StepUp(), "POST /api/admin/source", cat.AdminSetSource)
	op(content, "GET /api/admin/preview", cat.AdminPreviewRule)
	op(content.StepUp(), "POST /api/admin/preview", cat.AdminSetPreviewRule)
	op(content, "GET /api/admin/apps/clicks", cat.AdminAppClicks)
	op(supportRole, "GET /api/admin/feedback", sup.AdminFeedback)
	op(supportRole, "POST /api/admin/feedback/reply", sup.AdminReply)
	op(supportRole, "GET /api/admin/settled", sup.AdminApplications)
	op(supportRole, "POST /api/admin/settled/approve", sup.AdminApprove)
	op(supportRole, "POST /api/admin/settled/reject", sup.AdminReject)

	op(moderator, "GET /api/admin/message/reports", msg.AdminReports)
	op(finance, "GET /api/admin/rewards/checkin", wf.AdminCycle)
	op(finance, "POST /api/admin/rewards/checkin", wf.AdminSetCycle)
	op(finance, "GET /api/admin/rewards/tasks", wf.AdminTasks)
	op(finance, "POST /api/admin/rewards/tasks", wf.AdminSaveTask)
	op(finance, "GET /api/admin/rewards/prizes", wf.AdminPrizes)
	op(finance, "POST /api/admin/rewards/prizes", wf.AdminSavePrize)
	// Redemption code batches (codes): the plain codes only in the answer
	// that makes them.
	op(finance.StepUp(), "POST /api/admin/codes/batches", codes.AdminCreateBatch)
	op(finance, "GET /api/admin/codes/batches", codes.AdminBatches)
	op(finance, "POST /api/admin/codes/batches/disable", codes.AdminDisableBatch)
	// Community moderation: review, pin, feature, remove, reports, mutes,
	// settings and topics (docs/operator-guide.md, *Community*).
	op(moderator, "GET /api/admin/community/posts", mod.AdminPosts)
	op(moderator, "POST /api/admin/community/posts/review", mod.AdminReview)
	op(moderator, "POST /api/admin/community/posts/pin", mod.AdminPin)
	op(moderator, "POST /api/admin/community/posts/feature", mod.AdminFeature)
	op(moderator, "POST /api/admin/community/posts/remove", mod.AdminRemovePost)
	op(moderator, "GET /api/admin/community/comments", mod.AdminComments)
	op(moderator, "POST /api/admin/community/comments/remove", mod.AdminRemoveComment)
	op(moderator, "GET /api/admin/community/reports", mod.AdminReports)
	op(moderator, "POST /api/admin/community/reports/resolve", mod.AdminResolveReport)
	op(moderator, "POST /api/admin/community/mute", mod.AdminMute)
	op(moderator, "GET /api/admin/community/settings", mod.AdminSettings)
	op(moderator, "POST /api/admin/community/settings", mod.AdminSaveSettings)
	op(moderator, "GET /api/admin/community/topics", mod.AdminTopics)
	op(moderator, "POST /api/admin/community/topics", mod.AdminCreateTopic)
	op(moderator, "POST /api/admin/community/topics/update", mod.AdminUpdateTopic)
	// issue 20: moderation — bulk review is POST .../posts/review with ids;
	// video and message report handling; the blocked-words list
	// (internal/wordfilter, checked on posts, comments, messages, names).
	op(moderator, "GET /api/admin/videos/reports", cat.AdminVideoReports)
	op(moderator, "POST /api/admin/videos/reports/resolve", cat.AdminResolveVideoReports)
	op(moderator, "POST /api/admin/message/reports/resolve", msg.AdminResolveReport)
	op(moderator, "GET /api/admin/moderation/words", wordfilter.NewHandler(a.Words).AdminWords)
	op(moderator, "POST /api/admin/moderation/words", wordfilter.NewHandler(a.Words).AdminSetWords)
	// Search: the operator's pinned hot words.
	op(content, "GET /api/admin/search/pins", a.Search.AdminPins)
	op(content, "POST /api/admin/search/pins", a.Search.AdminSetPins)
	// issue 20: catalog (announcements, ads, pre-sale banners, galleries list;
	// docs/api.md, *Operator content*)
	op(content, "GET /api/admin/announcements", cat.AdminAnnouncements)
	op(content, "POST /api/admin/announcements", cat.AdminSaveAnnouncement)
	op(content, "POST /api/admin/announcements/delete", cat.AdminDeleteAnnouncement)
	op(content, "GET /api/admin/ads", cat.AdminAds)
	op(content, "POST /api/admin/ads", cat.AdminSaveAd)
	op(content, "POST /api/admin/ads/delete", cat.AdminDeleteAd)
	op(content, "GET /api/admin/presale", cat.AdminPreSales)
	op(content, "POST /api/admin/presale", cat.AdminSavePreSale)
	op(content, "POST /api/admin/presale/delete", cat.AdminDeletePreSale)
	op(content, "GET /api/admin/galleries", gal.AdminList)
	// issue 20: people. Search and a user's page for whoever reads users;
	// bans and mutes for support and moderators (and owner). The mute is
	// the community's one rule (posts, comments, messages), also at
	// /api/admin/community/mute.
	userGuard := operator.Allow(httpx.RoleSupport, httpx.RoleModerator)
	op(people, "GET /api/admin/users/search", adm.Search)
	op(people, "GET /api/admin/users/detail", adm.Detail)
	op(userGuard, "POST /api/admin/users/ban", adm.Ban)
	op(userGuard, "POST /api/admin/users/mute", mod.AdminMute)

	// issue 21: finance
	op(finance, "GET /api/admin/providers", wal.AdminProviders)
	op(finance.StepUp(), "POST /api/admin/providers", wal.AdminSwitchProvider)
	op(finance, "GET /api/admin/reconciliation", wal.AdminReconciliation)
	op(finance, "POST /api/admin/wallet/check", wal.AdminCheck)

	// issue 21: growth — every invitation, newest first by keyset (one
	// inviter's with ?inviter); code batches page by keyset; the pins
	// editor answers the phone's hot list too. Making a code batch and
	// the invite reward need a fresh step-up (they mint coins).
	op(finance, "GET /api/admin/invites/list", inv.AdminInvitations)
	// issue 22: backups — the schedule, the finished backups and the
	// latest runs; a backup now (docs/deploy.md, *Backups*).
	op(owner, "GET /api/admin/backups", a.Backups.AdminList)
	op(owner.StepUp(), "POST /api/admin/backups", a.Backups.AdminRun)
	// issue 21: money
	op(finance, "GET /api/admin/withdrawals/risk", wal.AdminWithdrawRisk)
	op(finance, "GET /api/admin/withdrawals/settings", wal.AdminWithdrawSettings)
	op(owner.StepUp(), "POST /api/admin/withdrawals/settings", wal.AdminSetWithdrawSettings)

	// issue 21: stats — the daily figures and top lists (JSON or
	// format=csv), and a day rolled up now (audited); finance and owner.
	op(finance, "GET /api/admin/stats/daily", a.Stats.AdminDaily)
	op(finance, "GET /api/admin/stats/top", a.Stats.AdminTop)
	op(finance, "POST /api/admin/stats/rollup", a.Stats.AdminRollup)
	op(anyOp, "/api/admin/", admin.NotFound)

	// Media files: public pictures unsigned, everything else through signed
	// URLs (/media/s/<token>/<key>); see docs/architecture.md.
	mux.Handle("GET /media/", http.StripPrefix("/media", blob.NewHandler(a.Media, a.Signer, nil)))

	// Everything under /api is the API table; /admin is the operator
	// console (its own build: internal/app/console.go), behind the same
	// address allowlist as its API; everything else is the web app. Both
	// route on the client.
	a.apiPatterns = api.Patterns()
	mux.Handle("/api/admin/", opr.AllowList(api))
	mux.Handle("/api/", api)
	mux.Handle("/admin/", opr.AllowList(console))
	mux.Handle("/admin", opr.AllowList(console))
	mux.Handle("/", webApp)
	return mux
}

// isAdmin reports whether a route pattern's path is under /api/admin.
func isAdmin(pattern string) bool {
	path := pattern
	if _, p, ok := strings.Cut(pattern, " "); ok {
		path = strings.TrimSpace(p)
	}
	return strings.HasPrefix(path, "/api/admin/") || path == "/api/admin"
}

// Access of the /api/admin routes: owner opens everything (operators,
// roles, the audit log); each route names the other roles it opens to.
// content: the catalogue, media, galleries, lines, remote configuration,
// search pins; moderator: community moderation, reports, mutes; finance:
// wallet, orders, withdrawals, coupons, codes, VIP products, coin
// packages, rewards and invitations; support: users (read), feedback,
// creator applications. StepUp() asks for a code entered in the last 5
// minutes (the sign-in's counts; then POST /api/admin/session/stepup):
// operator management and role changes, configuration publishes (remote
// configuration, delivery lines, the preview rule) and moving money by hand
// (adjustments, withdrawal payouts, orders marked paid or refunded). API
// keys cannot step up, so scripts cannot make these calls.
var (
	anyOp       = operator.Anyone
	owner       = operator.Allow()
	content     = operator.Allow(httpx.RoleContent)
	moderator   = operator.Allow(httpx.RoleModerator)
	finance     = operator.Allow(httpx.RoleFinance)
	supportRole = operator.Allow(httpx.RoleSupport) // "support" is the package
	// people reads users (a user's page: support, a moderator before a
	// mute, finance before an adjustment); userSessions signs a user out
	// of the app (support for a stolen phone, a moderator for abuse).
	people       = operator.Allow(httpx.RoleSupport, httpx.RoleModerator, httpx.RoleFinance)
	userSessions = operator.Allow(httpx.RoleSupport, httpx.RoleModerator)
	// moneyRead: a user's balances and orders, read-only, for support too.
	moneyRead = operator.Allow(httpx.RoleFinance, httpx.RoleSupport)
	// errorReports: failing lines (content) and failed payments (finance),
	// which users bring to support.
	errorReports = operator.Allow(httpx.RoleContent, httpx.RoleFinance, httpx.RoleSupport)
)

// pingCheck answers 200 only when the database answers too, so a client
// fails over from a line whose database is gone.
func (a *App) pingCheck(w http.ResponseWriter, r *http.Request) error {
	ctx, cancel := context.WithTimeout(r.Context(), 2*time.Second)
	defer cancel()
	if err := a.DB.Ping(ctx); err != nil {
		return &httpx.Error{Status: http.StatusServiceUnavailable, Tip: "服务暂不可用", Msg: "database unreachable", Err: err}
	}
	return httpx.OK(w, map[string]any{"ok": true, "time": time.Now().Unix()})
}
