-- Apple's vocabulary grows: a verified transaction whose `type` StoreSync does not know yet (a
-- kind Apple added later) is stored with Apple's spelling instead of being refused, and the
-- catalog decides what it grants. The catalog itself (products.type) still defines only the
-- four known kinds.
ALTER TABLE transactions DROP CONSTRAINT transactions_product_type_check;
ALTER TABLE transactions ADD CONSTRAINT transactions_product_type_check CHECK (product_type <> '');

-- When a purchase last moved from one account to another (NULL: never). Under the transfer
-- policies a purchase that moved waits out a cool-down before it moves again, so two accounts
-- holding one JWS cannot bounce it back and forth.
ALTER TABLE purchase_owners ADD COLUMN moved_at timestamptz;
