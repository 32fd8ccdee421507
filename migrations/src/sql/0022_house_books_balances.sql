-- What the house key and the pay-to address held of the token at the books' `block` (decimal
-- base units; NULL when not read). A pass whose logs account for every change of both since
-- then has seen every house transaction that moved the token: a nonce the logs did not show
-- moved none, and need not be looked up by itself (which needs the node's state at old blocks).
ALTER TABLE house_books ADD COLUMN house_balance TEXT NULL;
ALTER TABLE house_books ADD COLUMN pay_to_balance TEXT NULL;
