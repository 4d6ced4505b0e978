-- Forgot-password requests past their window go, whoever typed them, a few at a time along
-- this index (every request read the whole table for them, and a burst's requests waited on
-- each other's deletes); as login_failures since migration 006.
create index password_reset_requests_time on password_reset_requests (requested_at);
