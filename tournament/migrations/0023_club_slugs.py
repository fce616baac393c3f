"""Short names unique within a club (issue 26): a club gets its short name in addresses (/c/<club>/… on a server
of several clubs), and a tournament's or season's short name needs to be unique only among its club's."""

from django.db import migrations, models

from tournament.models.organisation import RESERVED_CLUB_SLUGS, address_slug


def name_the_clubs(apps, schema_editor):
    """Every club's short name from its name, the older club first keeping the plain one."""
    Organisation = apps.get_model("tournament", "Organisation")
    taken = set()
    for club in Organisation.objects.order_by("pk"):
        base = address_slug(club.name)[:50] or "club"
        slug, n = base, 2
        while slug in RESERVED_CLUB_SLUGS or slug in taken:
            slug, n = f"{base}-{n}", n + 1
        taken.add(slug)
        Organisation.objects.filter(pk=club.pk).update(slug=slug)


class Migration(migrations.Migration):
    dependencies = [
        ("tournament", "0022_federation"),
    ]

    operations = [
        migrations.AddField(
            model_name="organisation",
            name="slug",
            field=models.SlugField(default="", max_length=60, db_index=False, verbose_name="short name in addresses"),
            preserve_default=False,
        ),
        migrations.RunPython(name_the_clubs, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="organisation",
            name="slug",
            field=models.SlugField(max_length=60, unique=True, verbose_name="short name in addresses"),
        ),
        migrations.AlterField(
            model_name="season",
            name="slug",
            field=models.SlugField(max_length=80, verbose_name="short name in addresses"),
        ),
        migrations.AlterField(
            model_name="tournament",
            name="slug",
            field=models.SlugField(max_length=80, verbose_name="short name in addresses"),
        ),
        migrations.AddConstraint(
            model_name="season",
            constraint=models.UniqueConstraint(fields=("organisation", "slug"), name="season_slug_per_club"),
        ),
        migrations.AddConstraint(
            model_name="tournament",
            constraint=models.UniqueConstraint(fields=("organisation", "slug"), name="tournament_slug_per_club"),
        ),
    ]
