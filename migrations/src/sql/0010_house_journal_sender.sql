-- The house journal names the sender of each transaction (the address that signed it): a nonce
-- is its sender's own, so two keys' transactions with the same nonce (the house key changed on
-- the same database, say) prove nothing about each other. Lookups are by (sender, nonce).
-- Rows journalled before this column existed keep NULL, "sender unknown": no SQL can tell
-- which key signed them, and the operator may have changed the key since. Such a row still
-- proves a replacement, but only when the chain shows it mined from the replaced
-- transaction's own sender (its receipt's `from`); every other row is checked the same way.
ALTER TABLE house_transactions ADD COLUMN sender TEXT;
CREATE INDEX house_transactions_by_sender_nonce ON house_transactions (sender, nonce);
