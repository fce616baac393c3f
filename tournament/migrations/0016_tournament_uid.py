"""A stable identity for tournaments and seasons (issue 26): added empty, filled row by row, then made unique."""

import uuid

from django.db import migrations, models


def fill_uids(apps, schema_editor):
    for name in ("Tournament", "Season"):
        model = apps.get_model("tournament", name)
        for pk in model.objects.filter(uid__isnull=True).values_list("pk", flat=True).iterator():
            model.objects.filter(pk=pk).update(uid=uuid.uuid4())


class Migration(migrations.Migration):

    dependencies = [
        ("tournament", "0015_server_jobs"),
    ]

    operations = [
        migrations.AddField(model_name="tournament", name="uid",
                            field=models.UUIDField(editable=False, null=True, verbose_name="identity")),
        migrations.AddField(model_name="season", name="uid",
                            field=models.UUIDField(editable=False, null=True, verbose_name="identity")),
        migrations.RunPython(fill_uids, migrations.RunPython.noop, elidable=True),
        migrations.AlterField(model_name="tournament", name="uid",
                              field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True,
                                                     verbose_name="identity")),
        migrations.AlterField(model_name="season", name="uid",
                              field=models.UUIDField(default=uuid.uuid4, editable=False, unique=True,
                                                     verbose_name="identity")),
    ]
