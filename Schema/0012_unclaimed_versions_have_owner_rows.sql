-- An unclaimed version belongs to a purchase whose owner row names nobody.
--
-- Signed versions are kept unclaimed for a purchase no account holds: a Server Notification that
-- arrived before any device presented the purchase, or a deleted account's purchase released to
-- nobody. Every release has written the purchase's owner row (naming nobody) in the same
-- transaction, before the versions; this key makes that a constraint. A restore or upload that
-- creates a purchase's owner row then knows that no unclaimed version of it exists, and does not
-- look for one.
--
-- Owner rows are never deleted and their ids never change, so the key costs nothing on the
-- paths that write owner rows; it checks the rare unclaimed version when it is kept. A database
-- holding an unclaimed version without an owner row (which no release wrote) stops this
-- migration with the key's error, changing nothing.
ALTER TABLE unclaimed_versions
    ADD CONSTRAINT unclaimed_versions_owner_row_fkey
        FOREIGN KEY (original_transaction_id) REFERENCES purchase_owners (original_transaction_id) ON DELETE RESTRICT;
