package community

// Batch loaders for search (internal/searchapi): the index answers ids, and
// these turn them into the cards every other list shows, through the same
// code (cards, topicCounts). Each applies the public rule again, stricter
// than the one for a viewer's own lists: only published posts, shown
// topics and registered users, so a hit the index still holds for an item
// that has just been hidden is dropped, never shown, even to its author.

import (
	"context"

	"prima/internal/platform/db"
)

// PostsByIDs is the published posts among ids as viewer (0: anonymous)
// sees them in a feed, by id.
func (s *Service) PostsByIDs(ctx context.Context, viewer int64, ids []int64) (map[int64]Post, error) {
	out := map[int64]Post{}
	ids = unique(ids)
	if len(ids) == 0 {
		return out, nil
	}
	rows, err := db.All(ctx, s.db, scanPost, `SELECT `+postColumns+` FROM posts p WHERE p.state = 'published' AND p.id IN (`+db.Placeholders(len(ids))+`)`, idArgs(ids)...)
	if err != nil {
		return nil, err
	}
	shown := rows[:0]
	for _, r := range rows {
		if r.state == StatePublished {
			shown = append(shown, r)
		}
	}
	list, err := s.cards(ctx, viewer, shown, false)
	if err != nil {
		return nil, err
	}
	for _, p := range list {
		out[p.ID] = p
	}
	return out, nil
}

// TopicsByIDs is the shown topics among ids with their counts and whether
// viewer follows each, by id.
func (s *Service) TopicsByIDs(ctx context.Context, viewer int64, ids []int64) (map[int64]Topic, error) {
	out := map[int64]Topic{}
	ids = unique(ids)
	if len(ids) == 0 {
		return out, nil
	}
	list, err := db.All(ctx, s.db, scanTopic, `SELECT `+topicColumns+` FROM topics t WHERE t.status = 1 AND t.id IN (`+db.Placeholders(len(ids))+`)`, idArgs(ids)...)
	if err != nil {
		return nil, err
	}
	if err := topicCounts(ctx, s.db, viewer, list); err != nil {
		return nil, err
	}
	for _, t := range list {
		out[t.ID] = t
	}
	return out, nil
}

// PeopleByIDs is the registered users among ids as follow lists show them
// (FollowedAt left zero), with whether viewer follows each, by id. Guests
// are absent: a guest is one device's throwaway account, not a person
// anyone looks for.
func (s *Service) PeopleByIDs(ctx context.Context, viewer int64, ids []int64) (map[int64]Person, error) {
	out := map[int64]Person{}
	ids = unique(ids)
	if len(ids) == 0 {
		return out, nil
	}
	cards, err := s.people(ctx, s.db, ids)
	if err != nil {
		return nil, err
	}
	now := s.now()
	shown := make([]int64, 0, len(cards))
	for _, c := range cards {
		if !c.Guest {
			out[c.UID] = Person{UID: c.UID, Name: c.Name, Portrait: c.Portrait, Bio: c.Bio, VipLevel: c.VipLevel(now)}
			shown = append(shown, c.UID)
		}
	}
	if viewer != 0 && len(shown) > 0 {
		mine, err := following(ctx, s.db, viewer, shown)
		if err != nil {
			return nil, err
		}
		for id, p := range out {
			p.IsFollow = mine[id]
			out[id] = p
		}
	}
	return out, nil
}
