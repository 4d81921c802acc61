-- The minutely pruning of mail sent or given up (Store::prune_outbox)
-- reads these instead of scanning the whole outbox.
CREATE INDEX outbox_sent ON outbox(sent_at) WHERE sent_at IS NOT NULL;
CREATE INDEX outbox_gave_up ON outbox(gave_up_at) WHERE gave_up_at IS NOT NULL;
