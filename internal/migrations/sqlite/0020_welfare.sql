-- Welfare: points, daily check-in, tasks, points prizes
-- (docs/architecture.md, *Welfare*).

-- The points ledger: every change of users.points is one row here, written
-- in the same transaction as the conditional update of users.points; key
-- is the change's idempotency key, so a replay cannot credit twice.
CREATE TABLE point_entries (
    id            INTEGER PRIMARY KEY,
    user_id       BIGINT NOT NULL,
    delta         BIGINT NOT NULL,
    balance_after BIGINT NOT NULL,
    kind          TEXT NOT NULL,
    key           TEXT NOT NULL UNIQUE,
    ref           TEXT NOT NULL DEFAULT '',
    created_at    BIGINT NOT NULL
);
CREATE INDEX point_entries_user ON point_entries(user_id, id);

-- The operator's check-in cycle: the reward of streak day 1..7.
CREATE TABLE checkin_cycle (
    day    SMALLINT PRIMARY KEY CHECK (day BETWEEN 1 AND 7),
    points BIGINT NOT NULL DEFAULT 0 CHECK (points >= 0),
    coins  BIGINT NOT NULL DEFAULT 0 CHECK (coins >= 0)
);

-- One check-in per user per Asia/Shanghai day (YYYY-MM-DD): the primary
-- key is what makes a second tap, or a parallel one, fail.
CREATE TABLE checkins (
    user_id    BIGINT NOT NULL,
    day        TEXT NOT NULL,
    streak     INTEGER NOT NULL,
    points     BIGINT NOT NULL DEFAULT 0,
    coins      BIGINT NOT NULL DEFAULT 0,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, day)
);

-- Operator-configured tasks. metric names what progress is counted from
-- (rewards.Metrics); kind daily counts and claims per Shanghai day, once
-- for ever.
CREATE TABLE welfare_tasks (
    id          INTEGER PRIMARY KEY,
    title       TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    kind        TEXT NOT NULL CHECK (kind IN ('daily', 'once')),
    metric      TEXT NOT NULL,
    target      INTEGER NOT NULL CHECK (target >= 1),
    points      BIGINT NOT NULL DEFAULT 0 CHECK (points >= 0),
    coins       BIGINT NOT NULL DEFAULT 0 CHECK (coins >= 0),
    link        TEXT NOT NULL DEFAULT '',
    active      SMALLINT NOT NULL DEFAULT 1,
    sort        INTEGER NOT NULL DEFAULT 0,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);

-- A claimed task: period is the Shanghai day for daily tasks and 'once'
-- for once tasks, so the key allows one claim per period.
CREATE TABLE task_claims (
    user_id    BIGINT NOT NULL,
    task_id    BIGINT NOT NULL,
    period     TEXT NOT NULL,
    created_at BIGINT NOT NULL,
    PRIMARY KEY (user_id, task_id, period)
);

-- Prizes bought with points. stock NULL is unlimited; a limited stock is
-- taken with a conditional update (stock > 0).
CREATE TABLE point_prizes (
    id             INTEGER PRIMARY KEY,
    title          TEXT NOT NULL,
    image          TEXT NOT NULL DEFAULT '',
    cost           BIGINT NOT NULL CHECK (cost >= 1),
    coins          BIGINT NOT NULL DEFAULT 0,
    vip_level      SMALLINT NOT NULL DEFAULT 0,
    vip_days       INTEGER NOT NULL DEFAULT 0,
    coupons        INTEGER NOT NULL DEFAULT 0,
    stock          BIGINT CHECK (stock >= 0),
    per_user_limit INTEGER NOT NULL DEFAULT 0 CHECK (per_user_limit >= 0),
    active         SMALLINT NOT NULL DEFAULT 1,
    sort           INTEGER NOT NULL DEFAULT 0,
    created_at     BIGINT NOT NULL,
    updated_at     BIGINT NOT NULL
);

-- One exchange of a prize; (user_id, request_key) makes a retried request
-- return the first exchange instead of spending twice.
CREATE TABLE prize_exchanges (
    id          INTEGER PRIMARY KEY,
    user_id     BIGINT NOT NULL,
    prize_id    BIGINT NOT NULL,
    cost        BIGINT NOT NULL,
    request_key TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    UNIQUE (user_id, request_key)
);
CREATE INDEX prize_exchanges_prize_user ON prize_exchanges(prize_id, user_id);

INSERT INTO checkin_cycle (day, points, coins) VALUES
    (1, 5, 0), (2, 5, 0), (3, 10, 0), (4, 10, 0), (5, 15, 0), (6, 15, 0), (7, 30, 10);
