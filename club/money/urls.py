"""The money app's addresses: after the night (publishing, money owed), members' own view,
the payee's page and a player's statement under /c/<slug>/; payments marked at the table."""

from club.money.views import ledger, members, payee, statement

urlpatterns = [
    *ledger.link_urlpatterns,  # the payee marks payments paid at the table
]

club_urlpatterns = [
    *statement.urlpatterns,  # a player's statement printed (PDF)
    *ledger.urlpatterns,  # after the night: publishing, money owed
    *members.urlpatterns,  # members' own view, claiming a record, unsubscribing
    *payee.urlpatterns,  # the payee's own page, from the link in their results email
]
