"""Two Keras examples' patterns: a variational autoencoder (a Sampling layer drawing with
keras.random and a SeedGenerator, a custom train_step with GradientTape, loss trackers as
metrics, self.add_loss in a layer) and a GAN's train_step with two optimizers compiled through
an overridden compile."""
import numpy as np
import tensorflow as tf

keras = tf.keras
keras.utils.set_random_seed(59)
rng = np.random.RandomState(59)
data = rng.rand(48, 6).astype('float32')


class Sampling(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.seed_generator = keras.random.SeedGenerator(1337)

    def call(self, inputs):
        z_mean, z_log_var = inputs
        epsilon = keras.random.normal(shape=tf.shape(z_mean), seed=self.seed_generator)
        return z_mean + tf.exp(0.5 * z_log_var) * epsilon


class ActivityPenalty(keras.layers.Layer):
    def call(self, inputs):
        self.add_loss(1e-3 * tf.reduce_sum(tf.square(inputs)))
        return inputs


enc_in = keras.Input((6,))
h = keras.layers.Dense(8, activation='relu')(enc_in)
h = ActivityPenalty()(h)
z_mean = keras.layers.Dense(2, name='z_mean')(h)
z_log_var = keras.layers.Dense(2, name='z_log_var')(h)
encoder = keras.Model(enc_in, [z_mean, z_log_var, Sampling()([z_mean, z_log_var])])
dec_in = keras.Input((2,))
decoder = keras.Model(dec_in, keras.layers.Dense(6, activation='sigmoid')(
    keras.layers.Dense(8, activation='relu')(dec_in)))


class VAE(keras.Model):
    def __init__(self, encoder, decoder, **kwargs):
        super().__init__(**kwargs)
        self.encoder, self.decoder = encoder, decoder
        self.total_loss_tracker = keras.metrics.Mean(name='total_loss')
        self.kl_loss_tracker = keras.metrics.Mean(name='kl_loss')

    @property
    def metrics(self):
        return [self.total_loss_tracker, self.kl_loss_tracker]

    def train_step(self, data):
        with tf.GradientTape() as tape:
            z_mean, z_log_var, z = self.encoder(data)
            reconstruction = self.decoder(z)
            rec = tf.reduce_mean(tf.reduce_sum(
                keras.losses.binary_crossentropy(data[..., None], reconstruction[..., None]),
                axis=1))
            kl = -0.5 * (1 + z_log_var - tf.square(z_mean) - tf.exp(z_log_var))
            kl = tf.reduce_mean(tf.reduce_sum(kl, axis=1))
            total = rec + kl + sum(self.encoder.losses)
        grads = tape.gradient(total, self.trainable_weights)
        self.optimizer.apply_gradients(zip(grads, self.trainable_weights))
        self.total_loss_tracker.update_state(total)
        self.kl_loss_tracker.update_state(kl)
        return {m.name: m.result() for m in self.metrics}


vae = VAE(encoder, decoder)
vae.compile(optimizer=keras.optimizers.Adam(0.01))
h = vae.fit(data, epochs=3, batch_size=16, verbose=0)
for key in sorted(h.history):
    print('vae', key, np.round(h.history[key], 4).tolist())
print('encoder losses', len(encoder.losses))


class GAN(keras.Model):
    def __init__(self, discriminator, generator, latent_dim):
        super().__init__()
        self.discriminator, self.generator, self.latent_dim = discriminator, generator, latent_dim
        self.seed_generator = keras.random.SeedGenerator(42)

    def compile(self, d_optimizer, g_optimizer, loss_fn):
        super().compile()
        self.d_optimizer, self.g_optimizer, self.loss_fn = d_optimizer, g_optimizer, loss_fn
        self.d_loss_metric = keras.metrics.Mean(name='d_loss')
        self.g_loss_metric = keras.metrics.Mean(name='g_loss')

    @property
    def metrics(self):
        return [self.d_loss_metric, self.g_loss_metric]

    def train_step(self, real):
        batch = tf.shape(real)[0]
        noise = keras.random.normal((batch, self.latent_dim), seed=self.seed_generator)
        fake = self.generator(noise)
        combined = tf.concat([fake, real], axis=0)
        labels = tf.concat([tf.ones((batch, 1)), tf.zeros((batch, 1))], axis=0)
        with tf.GradientTape() as tape:
            d_loss = self.loss_fn(labels, self.discriminator(combined))
        grads = tape.gradient(d_loss, self.discriminator.trainable_weights)
        self.d_optimizer.apply_gradients(zip(grads, self.discriminator.trainable_weights))
        noise = keras.random.normal((batch, self.latent_dim), seed=self.seed_generator)
        with tf.GradientTape() as tape:
            g_loss = self.loss_fn(tf.zeros((batch, 1)),
                                  self.discriminator(self.generator(noise)))
        grads = tape.gradient(g_loss, self.generator.trainable_weights)
        self.g_optimizer.apply_gradients(zip(grads, self.generator.trainable_weights))
        self.d_loss_metric.update_state(d_loss)
        self.g_loss_metric.update_state(g_loss)
        return {'d_loss': self.d_loss_metric.result(), 'g_loss': self.g_loss_metric.result()}


disc = keras.Sequential([keras.Input((6,)), keras.layers.Dense(8), keras.layers.LeakyReLU(0.2),
                         keras.layers.Dense(1, activation='sigmoid')])
gen = keras.Sequential([keras.Input((3,)), keras.layers.Dense(8, activation='relu'),
                        keras.layers.Dense(6, activation='sigmoid')])
gan = GAN(disc, gen, 3)
gan.compile(keras.optimizers.Adam(0.003), keras.optimizers.Adam(0.003),
            keras.losses.BinaryCrossentropy())
h = gan.fit(tf.data.Dataset.from_tensor_slices(data).batch(16), epochs=3, verbose=0)
for key in sorted(h.history):
    print('gan', key, np.round(h.history[key], 4).tolist())
print('d iterations', int(gan.d_optimizer.iterations), 'g iterations', int(gan.g_optimizer.iterations))
