from django import forms

from .models import NAME_MAX_LENGTH


class DisplayNameForm(forms.Form):
    display_name = forms.CharField(label="Display name", max_length=NAME_MAX_LENGTH, strip=True)

    def clean_display_name(self):
        name = " ".join(self.cleaned_data["display_name"].split())
        if not name:
            raise forms.ValidationError("Pick a name with at least one visible character.")
        if any(ord(ch) < 32 for ch in name):
            raise forms.ValidationError("Names cannot contain control characters.")
        return name
