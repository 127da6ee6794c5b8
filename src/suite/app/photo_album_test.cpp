// The photo album: staged as planned (seeded, 2-6 MB, unique bytes), listed once and
// every photo read whole, with each photo's wait timed on the clock.
#include "suite/app/photo_album.h"

#include <gtest/gtest.h>

#include "testing/fake_clock.h"
#include "testing/timed_memory_app_fs.h"

namespace nasperf {
namespace {

TEST(PhotoAlbum, PlansSeededPhoneSizedPhotos) {
  PhotoAlbumOptions options;
  options.seed = 3;
  Result<PhotoAlbumPlan> a = PlanPhotoAlbum(options);
  Result<PhotoAlbumPlan> b = PlanPhotoAlbum(options);
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(a.value().sizes, b.value().sizes);
  ASSERT_EQ(a.value().sizes.size(), 200u);
  uint64_t total = 0;
  for (uint64_t s : a.value().sizes) {
    EXPECT_GE(s, 2'000'000u);
    EXPECT_LE(s, 6'000'000u);
    total += s;
  }
  EXPECT_EQ(a.value().total_bytes, total);
  options.seed = 4;
  EXPECT_NE(PlanPhotoAlbum(options).value().sizes, a.value().sizes);
}

TEST(PhotoAlbum, RefusesAnEmptyAlbum) {
  PhotoAlbumOptions options;
  options.photos = 0;
  Result<PhotoAlbumPlan> plan = PlanPhotoAlbum(options);
  ASSERT_FALSE(plan.ok());
  EXPECT_EQ(plan.status().kind(), ErrorKind::kBadInput);
}

TEST(PhotoAlbum, ListsOnceThenReadsEveryPhotoWhole) {
  PhotoAlbumOptions options;
  options.photos = 5;
  options.seed = 7;
  PhotoAlbumPlan plan = PlanPhotoAlbum(options).value();
  testing::FakeClock clock(0, 0);
  testing::TimedMemoryAppFs fs(1ull << 40, &clock, 1000);  // every call takes 1 us
  ASSERT_TRUE(StagePhotoAlbum(fs, plan).ok());
  ASSERT_EQ(fs.files().size(), 5u);
  EXPECT_NE(fs.files().at("album/IMG_0001.JPG"), fs.files().at("album/IMG_0002.JPG"));
  EXPECT_EQ(fs.files().at("album/IMG_0003.JPG").size(), plan.sizes[2]);

  AppFigures figures;
  ASSERT_TRUE(RunPhotoAlbum(fs, plan, clock, &figures).ok());
  EXPECT_EQ(figures.workload, "photo-album");
  EXPECT_EQ(figures.files, 5u);
  EXPECT_EQ(figures.bytes, plan.total_bytes);
  ASSERT_EQ(figures.ops.size(), 3u);
  EXPECT_EQ(figures.ops[0].op, "list");
  EXPECT_EQ(figures.ops[0].count, 1u);
  EXPECT_EQ(figures.ops[1].op, "open");
  EXPECT_EQ(figures.ops[1].count, 5u);
  EXPECT_DOUBLE_EQ(figures.ops[1].p99_us, 1.0);
  EXPECT_EQ(figures.ops[2].op, "read-photo");
  EXPECT_EQ(figures.ops[2].count, 5u);
  // A photo's wait: its open plus one call per MiB read plus the read that finds the end.
  uint64_t largest = *std::max_element(plan.sizes.begin(), plan.sizes.end());
  EXPECT_DOUBLE_EQ(figures.ops[2].max_us, 1.0 + static_cast<double>((largest + (1 << 20) - 1) / (1 << 20)) + 1.0);
  EXPECT_GT(figures.elapsed_s, 0);
  EXPECT_DOUBLE_EQ(figures.mb_per_s, static_cast<double>(figures.bytes) / figures.elapsed_s / 1e6);
}

TEST(PhotoAlbum, RefusesAVolumeWithoutRoomAndWritesNothing) {
  PhotoAlbumOptions options;
  options.photos = 10;
  PhotoAlbumPlan plan = PlanPhotoAlbum(options).value();
  testing::TimedMemoryAppFs fs(plan.total_bytes);  // the album alone would fill it
  Status s = StagePhotoAlbum(fs, plan);
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.kind(), ErrorKind::kBadInput);
  EXPECT_NE(s.message().find("too small"), std::string::npos) << s.message();
  EXPECT_TRUE(fs.files().empty());
  EXPECT_TRUE(fs.dirs().empty());
}

}  // namespace
}  // namespace nasperf
