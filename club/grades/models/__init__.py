"""The grades app's models, each in the table it had when the app was one (db_table)."""

from club.grades.models.grades import (
    Grade,
    GradeBacklog,
    GradeLine,
    GradeNight,
    GradeOptOut,
    GradeSettings,
)

__all__ = ["Grade", "GradeBacklog", "GradeLine", "GradeNight", "GradeOptOut", "GradeSettings"]
