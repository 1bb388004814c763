from django.conf import settings


def email_console(request):
    # The sign-in pages tell a developer where the code went (no EMAIL_URL: the console).
    return {"email_console": settings.DEBUG and settings.MAILERS["default"]["BACKEND"].endswith("console.EmailBackend")}
