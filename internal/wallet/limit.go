package wallet

// Per-user bounds of the VIP, exchange and adjustment calls, per minute
// (counted by Service.limit, which fails closed). Far above what a person
// taps; they stop a script looping on a token.
const (
	LimitVIPBuy   = 20
	LimitExchange = 10
	LimitAdjust   = 60
)
