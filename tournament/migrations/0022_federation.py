import django.core.validators
import django.db.models.deletion
import tournament.models.tournament
import uuid
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    dependencies = [
        ('tournament', '0021_print_jobs'),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.CreateModel(
            name='Federation',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, unique=True, verbose_name='name')),
                ('last_number', models.PositiveIntegerField(default=0, editable=False)),
                ('created', models.DateTimeField(auto_now_add=True)),
            ],
            options={
                'verbose_name': 'federation',
                'verbose_name_plural': 'federations',
                'ordering': ['name', 'pk'],
            },
        ),
        migrations.AddField(
            model_name='person',
            name='member_requested',
            field=models.BooleanField(default=False, editable=False),
        ),
        migrations.AddField(
            model_name='auditentry',
            name='federation',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournament.federation', verbose_name='federation'),
        ),
        migrations.AddField(
            model_name='organisation',
            name='federation',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='clubs', to='tournament.federation', verbose_name='federation'),
        ),
        migrations.CreateModel(
            name='FederationMember',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('number', models.PositiveIntegerField(verbose_name='member number')),
                ('first_name', models.CharField(blank=True, max_length=80, verbose_name='first name')),
                ('last_name', models.CharField(max_length=80, verbose_name='last name')),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('federation', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='members', to='tournament.federation')),
                ('home_club', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournament.organisation', verbose_name='home club')),
                ('merged_into', models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='+', to='tournament.federationmember')),
            ],
            options={
                'verbose_name': 'federation member',
                'verbose_name_plural': 'federation members',
                'ordering': ['number'],
            },
        ),
        migrations.AddField(
            model_name='person',
            name='member',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.PROTECT, related_name='entries', to='tournament.federationmember', verbose_name='federation member'),
        ),
        migrations.CreateModel(
            name='FederationSeason',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('name', models.CharField(max_length=120, verbose_name='name')),
                ('slug', models.SlugField(max_length=80, unique=True, verbose_name='short name in addresses')),
                ('uid', models.UUIDField(default=uuid.uuid4, editable=False, unique=True, verbose_name='identity')),
                ('game', models.CharField(max_length=40, validators=[tournament.models.tournament.validate_game], verbose_name='game')),
                ('language', models.CharField(choices=[('en', 'English'), ('de', 'German'), ('da', 'Danish')], default='en', max_length=8, verbose_name='language of printouts')),
                ('scoring', models.CharField(choices=[('places', 'Points per place'), ('game_points', "The game's own points")], default='places', max_length=12, verbose_name='ranking by')),
                ('place_points', models.JSONField(blank=True, default=list, verbose_name='points per place')),
                ('best_of', models.PositiveSmallIntegerField(blank=True, help_text='Empty: every evening counts.', null=True, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(999)], verbose_name='best evenings counting')),
                ('min_evenings', models.PositiveSmallIntegerField(default=1, validators=[django.core.validators.MinValueValidator(1), django.core.validators.MaxValueValidator(999)], verbose_name='evenings needed to be ranked')),
                ('publish', models.BooleanField(default=False, verbose_name='publish the season ranking')),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('created_by', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='+', to=settings.AUTH_USER_MODEL, verbose_name='created by')),
                ('federation', models.ForeignKey(on_delete=django.db.models.deletion.PROTECT, related_name='seasons', to='tournament.federation')),
            ],
            options={
                'verbose_name': 'federation season',
                'verbose_name_plural': 'federation seasons',
                'ordering': ['-created', 'name'],
            },
        ),
        migrations.AddField(
            model_name='tournament',
            name='federation_season',
            field=models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.SET_NULL, related_name='tournaments', to='tournament.federationseason', verbose_name='federation season'),
        ),
        migrations.CreateModel(
            name='FederationAdmin',
            fields=[
                ('id', models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name='ID')),
                ('created', models.DateTimeField(auto_now_add=True)),
                ('federation', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='admins', to='tournament.federation')),
                ('user', models.ForeignKey(on_delete=django.db.models.deletion.CASCADE, related_name='federation_admins', to=settings.AUTH_USER_MODEL)),
            ],
            options={
                'verbose_name': 'federation admin',
                'verbose_name_plural': 'federation admins',
                'constraints': [models.UniqueConstraint(fields=('federation', 'user'), name='one_admin_role_per_federation')],
            },
        ),
        migrations.AddConstraint(
            model_name='federationmember',
            constraint=models.UniqueConstraint(fields=('federation', 'number'), name='one_member_per_number'),
        ),
    ]
