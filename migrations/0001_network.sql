-- The network's books: venues, linked games, each venue's sales per game,
-- the prize fixed before the first ball, claims (booked once: a key per
-- venue and claim), the settlement (once per game) and its payouts.
-- Money is in minor units (bigint), never a float.

CREATE TABLE venues (
    venue       text PRIMARY KEY,
    version     text NOT NULL,
    first_seen  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE games (
    game        text PRIMARY KEY,
    play        text NOT NULL,
    stock       text NOT NULL,
    currency    text NOT NULL,
    commitment  text NOT NULL,
    opened_at   timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE allotments (
    game        text NOT NULL REFERENCES games,
    venue       text NOT NULL,
    first_face  bigint NOT NULL,
    last_face   bigint NOT NULL CHECK (last_face >= first_face),
    PRIMARY KEY (game, venue, first_face)
);

CREATE TABLE sales (
    game        text NOT NULL REFERENCES games,
    venue       text NOT NULL REFERENCES venues,
    faces       bigint NOT NULL CHECK (faces > 0),
    amount      bigint NOT NULL CHECK (amount >= 0),
    booked_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game, venue)
);

CREATE TABLE prizes (
    game        text PRIMARY KEY REFERENCES games,
    sales       bigint NOT NULL CHECK (sales >= 0),
    amount      bigint NOT NULL CHECK (amount >= 0),
    fixed_at    timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE claims (
    game        text NOT NULL REFERENCES games,
    venue       text NOT NULL REFERENCES venues,
    claim       bigint NOT NULL,
    face        bigint NOT NULL,
    call        smallint NOT NULL,
    refused     text NOT NULL,
    booked_at   timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (game, venue, claim)
);

CREATE TABLE settlements (
    game        text PRIMARY KEY REFERENCES prizes,
    call        smallint,
    settled_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE payouts (
    game        text NOT NULL REFERENCES settlements,
    venue       text NOT NULL REFERENCES venues,
    face        bigint NOT NULL,
    amount      bigint NOT NULL CHECK (amount >= 0),
    PRIMARY KEY (game, venue, face)
);
