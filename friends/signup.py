"""allauth's sign-up with the display name filled in: the name this browser already plays under
(if the player picked one), so that signing up keeps it unless the player types another."""

from allauth.account.views import SignupView

from players.views import name_chosen


class NamedSignupView(SignupView):
    def get_initial(self) -> dict:
        initial = super().get_initial()
        if name_chosen(self.request):
            initial["display_name"] = self.request.player.display_name
        return initial


signup = NamedSignupView.as_view()
