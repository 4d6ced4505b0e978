-- The list sorted by last log ("longest since last log") counts a participant who has logged
-- no night from the eve of her start, as the follow-up does (docs/admin.md), not among those
-- never enrolled: her key in admin_user_order, kept from now on by refreshUserOrder.
update admin_user_order o set last_night_date = p.study_start_date - 1
from research_participants p
where p.user_id = o.user_id and o.last_night_date is null;
